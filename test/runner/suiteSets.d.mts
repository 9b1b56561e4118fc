export declare const reachesDatabase: RegExp[];
export declare function opensDatabase(source: string): boolean;
export declare const databaseFreeFolders: string[];
export declare const postgresDialectSuites: RegExp[];
export declare const resultMark: string;
