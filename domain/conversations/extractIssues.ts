import { plainTexts } from './plainText.js';
import { languageOf, sentencesOf, type Language, type Sentence } from './language.js';

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
/** Cues of unsolicited mail: two different ones make a conversation spam. Not words a product's own docs use ("wallet", "podcast", "mailing list"). */
const spamCues =
  /\b(seo|backlinks?|casino|crypto|airdrop|investment opportunity|click here|buy now|limited time|claim your|guaranteed|unsubscribe|dear friend|earn \d+%?|partnerships?|co-marketing|sponsorship|looking for sponsors|webinar|book a (?:call|demo)|\d+[- ]minute call|are you looking to|we help (?:[\w-]+ ){0,3}(?:companies|teams|businesses)|offshore (?:developers|engineers|teams?)|verify your wallet)\b/gi;
/** Mail that is no one's question: job applications, requests to leave a mailing list. */
const notARequest =
  /(?<!\p{L})(?:dear hiring (?:manager|team)|(?:apply(?:ing)?|application) for the (?:[\w-]+ ){0,3}(?:position|opening|vacancy)|cover letter|(?:my|attached) (?:cv|resume|résumé)|remove me from (?:your|this) (?:mailing |email )?list)(?!\p{L})/iu;
/** An automatic reply's subject, in English and the languages below. */
const autoReplySubject =
  /^\s*(?:automatic reply|auto-?reply|out of (?:the )?office|automatische antwort|abwesenheitsnotiz|réponse automatique|automatisch antwoord|respuesta automática|risposta automatica|resposta automática)\s*:/iu;
/**
 * An automatic reply's own words: the conversation is one unless a sentence that isn't about
 * replies, mail or whom to call asks or reports a problem (someone out tomorrow can still report one).
 */
const outOfOffice = /(?<!\p{L})(?:i am|i['’]m|i will be) (?:out of (?:the )?office|away from (?:the office|my desk))(?!\p{L})/iu;
const replyLogistics = /\b(?:urgent|repl(?:y|ies)|e-?mails?|mail|contact|colleague|back (?:on|in)|access|office|until)\b/i;
/** Words that mark a sentence as a problem or a request, besides questions and negations. */
const problemCues = new Set(
  'error errors fail fails failed failing broken broke breaks missing stuck unable expired wrong confusing unclear timeout conflict locked cut greyed unauthorized forbidden charged refund crash crashes bug limit limits 401 403 404 429 500 mismatch pending ignores disappear disappears disappeared still unverified zero lose loses lost spins hangs freezes forever instead blank empty nothing overwrote wiped slow slower invisible looping bounced'.split(
    ' ',
  ),
);
/** The same as phrases, where the word alone is as often a courtesy ("keeps things simple", "in the loop", "let me know whether"). */
const problemPhrases =
  /\b(?:keeps \w+ing|(?:it|they|people|users|readers|we|i) keep (?:getting|seeing|hitting|failing|crashing|losing|looping|redirecting|bouncing)|(?:login|redirect|sign-?in|sso|saml|oauth|auth|okta|infinite|endless) loops?|in a loop|loops? back|(?:grey|gray) (?:box|screen|area|page)|(?:stays|stuck|turned|turns|remains|is) (?:grey|gray)|whether (?:[\w-]+ ){0,3}(?:can|could|is|are|supports?|allows?|works?)|(?:weird|strange)(?:ly)? (?:error|behaviou?r|issue|bug|result)|looks? (?:weird|strange|off|broken)|something (?:weird|strange))\b/i;
/**
 * In the languages other than English that support mail comes in most (French, German, Dutch,
 * Spanish, Portuguese, Italian), which wink's English analysis reads neither questions nor
 * negations in: a negation or the word for error or problem, once the courtesies that use them
 * ("pas de souci", "kein Problem", "de nada") are taken out. Only in a sentence that reads as another
 * language (languageOf), or in a text that does when the sentence can't tell: "pas" and "ne" are
 * English too ("faux pas", "Omaha, NE").
 */
const otherLanguageProblemCues =
  /(?<!\p{L})(?:ne|pas|jamais|rien|erreur|problème|nicht|kein\p{L}*|nie|fehler|problem|niet|geen|fout|probleem|no|nunca|error|problema|falla|não|nao|erro|non|errore)(?!\p{L})|(?<!\p{L})n['’](?=\p{L})/iu;
const otherLanguageCourtesies =
  /(?<!\p{L})(?:pas de (?:souci|problème)|aucun problème|de rien|il n['’]y a pas de quoi|n['’]hésite[zr]? pas|kein problem|keine (?:ursache|sorge)|geen (?:probleem|dank)|graag gedaan|de nada|no (?:hay problema|pasa nada)|sin problema|sem problema|di niente|non c['’]è di che|nessun problema|non serve altro|(?:problem|problème|probleem|problema) (?:ist |est |is |è |está |foi )?(?:gelöst|résolu|opgelost|risolto|resuelto|resolvido))(?!\p{L})/giu;
/** Words that open a question or a request (questions opened by an auxiliary: Sentence.inverted). */
const requestStarts = /^(how|where|what|which|why|when|who|is there|are there|please)\b/i;
/**
 * A question asked inside a sentence ("ratings readers leave, where do i see them"), or a request
 * written as one ("make it the default pls"). Not "please" itself: inside a sentence it is as often
 * a courtesy ("for urgent matters please contact my colleague").
 */
const requestInside =
  /\b(?:(?:how|where|what|which|why|when|who) (?:do|does|can|could|should|would|is|are) (?:i|we|you|they|one|it)|is there a way|(?:need|want|would like) to (?:know|confirm|find out|understand)|guidance on|pls|plz)\b/i;
const pleasantry = /^(hi|hello|hey|dear|thanks|thank you|cheers|regards|best|good (?:morning|afternoon|evening))\b[\s,!.]*/i;

/** `textLanguage`: the language of all the user wrote, asked for only when a sentence can't tell its own. */
function isProblem(sentence: Sentence, textLanguage: () => Language): boolean {
  const text = sentence.text.replace(pleasantry, '');
  if (!text) return false;
  if (sentence.question || sentence.inverted || requestStarts.test(text) || requestInside.test(text)) return true;
  if (sentence.words.some((word) => problemCues.has(word)) || problemPhrases.test(text)) return true;
  const language = languageOf(text);
  const otherLanguage = language === 'other' || (language === 'unknown' && textLanguage() !== 'english');
  // wink's negations are English's ("No pasa nada" is a courtesy).
  if (!otherLanguage) return sentence.negated;
  return otherLanguageProblemCues.test(text.replace(otherLanguageCourtesies, ''));
}

/**
 * A sentence with a part (between colons, semicolons, or a comma and "so" or "but") that asks, or
 * names a problem by its words, and isn't about replies and mail: what an automatic reply doesn't say.
 */
function reportsBesideAutoReply(sentence: Sentence): boolean {
  return sentence.text
    .split(/[:;]|,\s*(?=(?:so|but)\b)/i)
    .some((part) => !replyLogistics.test(part) && (part.trim().endsWith('?') || (part.toLowerCase().match(/[\p{L}\d]+/gu) ?? []).some((word) => problemCues.has(word)) || problemPhrases.test(part)));
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
  if (new Set(withSubject.match(spamCues)?.map((cue) => cue.toLowerCase())).size >= 2 || notARequest.test(withSubject) || autoReplySubject.test(conversation.subject ?? '')) return [];
  const sentences = userTexts.flatMap((text) => sentencesOf(text));
  if (outOfOffice.test(all) && !sentences.some(reportsBesideAutoReply)) return [];
  let textLanguage: Language | undefined;
  const problems = sentences.filter((sentence) => isProblem(sentence, () => (textLanguage ??= languageOf(all))));
  if (!problems.length) return [];
  const lead = problems.find((sentence) => sentence.question) ?? problems[0]!;
  const said = sentences.map((sentence) => withoutGreeting(sentence.text)).filter((text) => text && !courtesy.test(text));
  return [{ title: clip(withoutGreeting(lead.text), 140), summary: clip(said.join(' '), 1000) }];
}
