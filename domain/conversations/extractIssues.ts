import { plainTexts } from './plainText.js';
import { sentencesOf, type Sentence } from './language.js';

export interface ConversationText {
  subject: string | null;
  parts: Array<{ type: string; role: string; body: string }>;
}

export interface ExtractedIssue {
  title: string;
  summary: string;
}

/** The user says the problem went away on its own: nothing left to document. */
const selfResolved = /\b(never ?mind|figured it out|solved it myself|sorted it out myself|ignore (?:this|my (?:last )?message)|no longer needed)\b/i;
/** "Found it" before the team answered is the user's own find; after, it is the answer they needed, and the docs didn't give. */
const foundIt = /(?<!\b(?:not|never)\s+|n['’]t\s+)\bfound it\b/i;
const spamCues = /\b(seo|backlinks?|casino|crypto|airdrop|wallet|investment opportunity|click here|buy now|limited time|claim your|guaranteed|unsubscribe|mailing list|dear friend|earn \d+%?|partnerships?|co-marketing|sponsors?(?:hip)?|podcast|offshore|webinar|book a (?:call|demo)|\d+[- ]minute call)\b/gi;
/** Mail that is no one's question: automatic replies (by their subject or their first words) and job applications. */
const notARequest =
  /^(?:automatic reply|auto-?reply|out of (?:the )?office)\b|\b(?:i am|i'm|i will be) (?:out of (?:the )?office|away from (?:the office|my desk))|\bdear hiring (?:manager|team)\b|\b(?:apply(?:ing)?|application) for the (?:[\w-]+ ){0,3}(?:position|role|job|opening)\b|\bcover letter\b|\b(?:my|attached) (?:cv|resume|résumé)\b/im;
/** Words that mark a sentence as a problem or a request, besides questions and negations. */
const problemCues = new Set(
  'error errors fail fails failed failing broken broke breaks missing stuck unable expired wrong confusing unclear timeout conflict locked cut greyed grey gray unauthorized forbidden charged refund crash crashes bug limit limits 401 403 404 429 500 mismatch pending ignores disappear disappears disappeared still unverified zero lose loses lost spins hangs freezes forever instead blank empty nothing overwrote wiped slow slower invisible loop loops looping bounced keeps weird strange whether'.split(' '),
);
/**
 * The same in the languages other than English that support mail comes in most (French, German,
 * Dutch, Spanish, Portuguese, Italian): negations and the words for error, problem and "works",
 * since wink's sentence analysis is English's and finds neither questions opened without a
 * question mark nor negations there.
 */
const otherLanguageProblemCues = /(?<!\p{L})(?:ne|pas|jamais|rien|erreur|marche|fonctionne|nicht|kein|keine|keinen|nie|fehler|funktioniert|geht|geen|niet|fout|werkt|nunca|nada|funciona|falla|erro|não|nao|funziona|errore|niente|mai|problema|problème|probleem|probleme)(?!\p{L})/iu;
/** Words that open a question or a request (questions opened by an auxiliary: Sentence.inverted). */
const requestStarts = /^(how|where|what|which|why|when|who|is there|are there|please)\b/i;
/**
 * A question asked inside a sentence ("ratings readers leave, where do i see them"), or a request
 * written as one ("make it the default pls"). Not "please" itself: inside a sentence it is as often
 * a courtesy ("for urgent matters please contact my colleague").
 */
const requestInside = /\b(?:(?:how|where|what|which|why|when|who) (?:do|does|can|could|should|would|is|are) (?:i|we|you|they|one|it)|is there a way|(?:need|want|would like) to (?:know|confirm|find out|understand)|guidance on|pls|plz)\b/i;
const pleasantry = /^(hi|hello|hey|dear|thanks|thank you|cheers|regards|best|good (?:morning|afternoon|evening))\b[\s,!.]*/i;

function isProblem(sentence: Sentence): boolean {
  const text = sentence.text.replace(pleasantry, '');
  if (!text) return false;
  if (sentence.question || sentence.inverted || requestStarts.test(text) || requestInside.test(text)) return true;
  if (sentence.negated) return true;
  return sentence.words.some((word) => problemCues.has(word)) || otherLanguageProblemCues.test(text);
}

/** A sentence that is only courtesy: greetings, thanks, sign-offs. */
const courtesy = /^(?:(?:hi|hello|hey|dear|thanks|thank you|many thanks|cheers|regards|best(?: regards)?|good (?:morning|afternoon|evening)|please help)\b[^.!?]{0,30}[.!?,]*\s*)+$/i;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, text.lastIndexOf(' ', max - 1) > max / 2 ? text.lastIndexOf(' ', max - 1) : max - 1)}…`);
const withoutGreeting = (text: string) => text.replace(/^(?:(?:hi|hello|hey|dear)\b[^,.!?\n]{0,30}[,.!]+\s*)+/i, '').trim();

/**
 * The documentation issue in a conversation, found without a language model: the user's sentences
 * that ask how to do something or say what failed. At most one issue per conversation, quoted from
 * the user's own words: the title is their first question (or first problem), the summary what
 * they said, courtesies left out. None when no sentence asks or complains, or when the user only
 * thanks, advertises, or solved it alone.
 */
export function extractIssuesLocally(conversation: ConversationText): ExtractedIssue[] {
  const messages = conversation.parts.filter((part) => part.type === 'message');
  const userTexts = plainTexts(messages.filter((part) => part.role === 'user').map((part) => part.body));
  const all = userTexts.join('\n');
  // The team's first answer to the user (a greeting before the user wrote is none; an assistant's answer came from the docs).
  const firstAsked = messages.findIndex((part) => part.role === 'user');
  const answered = messages.findIndex((part, index) => index > firstAsked && part.role === 'team-member');
  const askedBeforeAnswer = answered < 0 ? userTexts.length : messages.slice(0, answered).filter((part) => part.role === 'user').length;
  const beforeAnswer = userTexts.slice(0, askedBeforeAnswer).join('\n');
  if (!all.trim() || selfResolved.test(all) || foundIt.test(beforeAnswer)) return [];
  const withSubject = `${conversation.subject ?? ''}\n${all}`;
  if ((withSubject.match(spamCues) ?? []).length >= 2 || notARequest.test(withSubject)) return [];
  const sentences = userTexts.flatMap((text) => sentencesOf(text));
  const problems = sentences.filter(isProblem);
  if (!problems.length) return [];
  const lead = problems.find((sentence) => sentence.question) ?? problems[0]!;
  const said = sentences.map((sentence) => withoutGreeting(sentence.text)).filter((text) => text && !courtesy.test(text));
  return [{ title: clip(withoutGreeting(lead.text), 140), summary: clip(said.join(' '), 1000) }];
}
