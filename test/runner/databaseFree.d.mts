export const databaseFreeFolders: string[];
