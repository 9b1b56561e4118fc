import { glossaryTerms, protectTerms, restoreTerms } from './glossary.js';
import type { Database } from '../../storage/db.js';
import { type Change, documentToMarkdown, type JsonDocument, listFiles, objectId, primaryBranch, readFileBytes, resolveRevision } from '../../engine/index.js';
import { findSpace, type SpaceRecord } from '../../storage/spaces.js';
import {
  claimTranslationRun,
  completeTranslationRun,
  deleteTranslation,
  findTranslation,
  insertTranslation,
  releaseTranslationRun,
  setTranslationInstructions,
  setTranslationRunning,
  setTranslationTarget,
  translatedFiles,
  type TranslationRecord,
} from '../../storage/translations.js';
import { findUser, type UserRecord } from '../../storage/users.js';
import type { ContentDeps, JobDeps } from '../common/deps.js';
import { invalidInput } from '../common/errors.js';
import { createSpace, writeContent } from '../spaces/index.js';
import { readableSpace } from '../organizations/index.js';
import { countWords, replaceSegments, textSegments } from './markdownText.js';
import { TranslatorError, type Translator } from './translators.js';

export const emptyDocument = { object: 'document', nodes: [] } as const;

export interface NewTranslation {
  language: string;
  source: { space: string; language: string };
  instructions?: JsonDocument;
}

/** A translation of one of the organization's spaces, with its first run started. */
export async function createTranslation(deps: JobDeps, organizationId: string, input: NewTranslation, creator: UserRecord): Promise<TranslationRecord> {
  const source = await readableSpace(deps.db, organizationId, input.source.space, creator.id);
  if (!source) throw invalidInput(`"source.space" ${input.source.space} is not a space of organization ${organizationId} that you can read`);
  if (input.language === input.source.language) throw invalidInput(`"language" is the source's language (${input.language}): choose another to translate into`);
  const created = await deps.db.transaction((tx) =>
    insertTranslation(tx, {
      organizationId,
      sourceSpaceId: source.id,
      sourceLanguage: input.source.language,
      language: input.language,
      instructions: (input.instructions ?? emptyDocument) as unknown as Record<string, unknown>,
      createdBy: creator.id,
    }),
  );
  try {
    await runTranslation(deps, created, creator);
  } catch (error) {
    await deleteTranslation(deps.db, created.id);
    throw error;
  }
  return (await findTranslation(deps.db, created.id))!;
}

/**
 * Starts the translation's next run, or joins the one under way (a repeated request starts no
 * second job). When the job can't be started, the run is given back and the caller gets the 503.
 */
export async function runTranslation(deps: JobDeps, translation: TranslationRecord, caller: UserRecord): Promise<void> {
  // Whoever starts a run must read the source now, as its creator had to.
  if (!(await readableSpace(deps.db, translation.organizationId, translation.sourceSpaceId, caller.id))) {
    throw invalidInput(`The source space ${translation.sourceSpaceId} of translation ${translation.id} is not one you can read`);
  }
  const claimed = await deps.db.transaction((tx) => claimTranslationRun(tx, translation.id));
  if (!claimed) return;
  try {
    await deps.jobs.startTranslationRun(translation.id, claimed.run, translation.sourceSpaceId);
  } catch (error) {
    if (claimed.started) await releaseTranslationRun(deps.db, translation.id, claimed.run);
    throw error;
  }
}

export interface TranslationRunInput {
  translationId: string;
  run: number;
}

export type TranslationRunOutcome = 'gone' | 'done' | 'translated';

/**
 * One run, the work of the job's activity: the source's primary revision, translated where its
 * files changed since the last run, written as one commit on the target space (made by the first
 * run), then recorded. Safe to repeat: a retried run finds the files already written and makes no
 * second commit; a run already recorded does nothing.
 */
export async function translateRun(deps: ContentDeps, input: TranslationRunInput, translator: Translator): Promise<TranslationRunOutcome> {
  const translation = await findTranslation(deps.db, input.translationId);
  if (!translation || translation.runs < input.run) return 'gone';
  if (translation.completedRuns >= input.run) return 'done';
  const started = Date.now();
  await setTranslationRunning(deps.db, translation.id, input.run);
  const author = await findUser(deps.db, translation.createdBy);
  if (!author) throw new TranslatorError(`The user ${translation.createdBy} who created translation ${translation.id} is gone`, false);
  // The job reads the source on its creator's behalf: only while they may read it.
  const source = await readableSpace(deps.db, translation.organizationId, translation.sourceSpaceId, author.id);
  if (!source) throw new TranslatorError(`The source space ${translation.sourceSpaceId} of translation ${translation.id} is gone or no longer readable by its creator`, false);
  const target = await targetSpace(deps, translation, source, author);

  const sourceRepo = deps.repositories.open(source.id);
  const files = await listFiles(sourceRepo, await resolveRevision(sourceRepo, primaryBranch));
  const previous = await translatedFiles(deps.db, translation.id);
  const guidance = guidanceOf(translation.instructions);
  // The glossary as it is when the run starts: its terms are rendered as it says.
  const terms = await glossaryTerms(deps.db, translation.organizationId, translation.sourceLanguage, translation.language);
  const written = new Map<string, string>();
  const changes: Change[] = [];
  let words = 0;
  let pages = 0;
  const work = [...files].filter(([path, oid]) => previous.get(path) !== oid);
  await inParallel(work, 4, async ([path, oid]) => {
    const bytes = await readFileBytes(sourceRepo, oid);
    let content: string | Uint8Array = bytes;
    if (path.endsWith('.md')) {
      const markdown = Buffer.from(bytes).toString('utf8');
      const segments = textSegments(markdown);
      const units = segments.map((segment) => segment.html);
      const translated = units.length
        ? restoreTerms(
            await translator.translate(protectTerms(units, terms), {
              from: translation.sourceLanguage,
              to: translation.language,
              guidance,
              use: { db: deps.db, organizationId: translation.organizationId, feature: 'translations' },
            }),
            terms,
          )
        : [];
      content = replaceSegments(markdown, segments, translated);
      words += countWords(segments.map((segment) => segment.text));
      if (path !== 'SUMMARY.md') pages += 1;
    }
    changes.push({ path, content });
    written.set(path, oid);
  });
  const removed = [...previous.keys()].filter((path) => !files.has(path));
  for (const path of removed) changes.push({ path, remove: true });

  const revision = await writeUnlessThere(deps, target, changes, author, `Translate ${source.title} into ${translation.language} (run ${input.run})`);
  const recorded = await deps.db.transaction((tx) =>
    completeTranslationRun(tx, { translationId: translation.id, run: input.run, revision, written, removed, pages, words, durationMs: Date.now() - started }),
  );
  return recorded ? 'translated' : 'gone';
}

/** The target space, made by the first run in the source's organization and collection, marked with the language. */
async function targetSpace(deps: ContentDeps, translation: TranslationRecord, source: SpaceRecord, author: UserRecord): Promise<SpaceRecord> {
  const existing = translation.targetSpaceId ? await findSpace(deps.db, translation.targetSpaceId) : undefined;
  if (existing) return existing;
  const made = await createSpace(deps, {
    organizationId: source.organizationId,
    collectionId: source.collectionId,
    title: `${source.title.slice(0, 50 - translation.language.length - 3)} (${translation.language})`,
    emoji: source.emoji,
    // As private as its source: a translation shows the source's text to the same people.
    visibility: source.visibility,
    defaultLevel: source.defaultLevel,
    language: translation.language,
    template: null,
    creator: author,
    createdBy: author.id,
  });
  if (await setTranslationTarget(deps.db, translation.id, translation.targetSpaceId, made.id)) return made;
  // Another attempt of the run recorded its own target meanwhile: that one is the target.
  const recorded = (await findTranslation(deps.db, translation.id))?.targetSpaceId;
  return (recorded && (await findSpace(deps.db, recorded))) || made;
}

/**
 * Commits the changes the target doesn't hold yet (none: no commit). A run retried after its
 * commit landed finds everything there, so it never commits twice. The target's revision after.
 */
async function writeUnlessThere(deps: ContentDeps, space: SpaceRecord, changes: Change[], author: UserRecord, message: string): Promise<string> {
  const repo = deps.repositories.open(space.id);
  const needed = async (head: string | null) => {
    const there = head ? await listFiles(repo, head) : new Map<string, string>();
    return changes.filter((change) =>
      'remove' in change ? there.has(change.path) : there.get(change.path) !== objectId('blob', typeof change.content === 'string' ? Buffer.from(change.content) : change.content),
    );
  };
  const head = await resolveRevision(repo, primaryBranch);
  if (!(await needed(head)).length) return head;
  return (await writeContent(deps, { space, message, author, changes: (_repo, head) => needed(head) })).commit;
}

/** The instructions as text for a translator that takes guidance. */
function guidanceOf(instructions: Record<string, unknown>): string {
  try {
    return documentToMarkdown(instructions as unknown as JsonDocument).trim();
  } catch {
    return '';
  }
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The instructions the translator is given, replaced whole. */
export function setInstructionsOf(db: Database, translationId: string, instructions: Record<string, unknown>): Promise<void> {
  return setTranslationInstructions(db, translationId, instructions);
}

/** The translation goes; its target space stays, a space like any other. A run under way finds it gone and stops. */
export function removeTranslation(db: Database, translationId: string): Promise<boolean> {
  return deleteTranslation(db, translationId);
}
