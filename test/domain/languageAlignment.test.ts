import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { embedTexts } from '../../domain/conversations/embedding.js';
import { readsAsEnglish } from '../../domain/conversations/language.js';
import { alignedToEnglish } from '../../domain/conversations/languageAlignment.js';

const test = suite('conversation issues in other languages');
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, d) => sum + value * b[d]!, 0);

test('a text reads as English by its share of English stop words; a short note is taken as English', () => {
  assert.ok(readsAsEnglish('When I export the space to PDF, the code blocks are cut off at the right margin and the last lines of each page are missing.'));
  assert.not.ok(readsAsEnglish("Bonjour, quand nous exportons l'espace en PDF, les blocs de code sont coupés à droite et les dernières lignes de chaque page manquent."));
  assert.not.ok(readsAsEnglish('Hallo, beim Export des Bereichs als PDF werden die Codeblöcke rechts abgeschnitten und die letzten Zeilen jeder Seite fehlen.'));
  assert.ok(readsAsEnglish('PDF export cuts code blocks'), 'too short to tell');
  assert.ok(readsAsEnglish('export pdf coupé'), 'too short to tell');
});

const issues = [
  { topic: 'invoices', english: true, text: 'Our invoice shows the wrong VAT number and the old billing address. How do we correct it for future invoices?' },
  { topic: 'invoices', english: true, text: 'Where can I download the invoices for the last three months? Our accountant needs them as PDF files.' },
  { topic: 'invoices', english: true, text: 'We were charged twice for the same month on our card. Can you refund one of the two payments?' },
  { topic: 'invoices', english: true, text: 'How do I change the email address that receives our invoices? It still goes to someone who left.' },
  { topic: 'invoices', english: false, text: 'Bonjour, notre facture affiche un mauvais numéro de TVA et notre ancienne adresse. Comment pouvons-nous la corriger ?' },
  { topic: 'search', english: true, text: 'Search on our published docs returns nothing for words that are clearly on the page. Is the index broken?' },
  { topic: 'search', english: true, text: 'The search bar of the public site finds old pages we deleted weeks ago. How do we refresh the results?' },
  { topic: 'search', english: true, text: 'Readers say that searching for an error code finds nothing, although the code is in a table on the page.' },
  { topic: 'search', english: true, text: 'Can we stop our changelog pages from showing up first in the search results of the site?' },
  { topic: 'search', english: false, text: 'Bonjour, la recherche sur notre documentation publiée ne trouve rien pour des mots qui sont bien sur la page. Pourquoi ?' },
  { topic: 'domain', english: true, text: 'We pointed docs.example.com at you with a CNAME record, but the browser says the certificate is not valid for our domain.' },
  { topic: 'domain', english: true, text: 'How long does it take before our custom domain works over HTTPS? The DNS record was added yesterday.' },
  { topic: 'domain', english: true, text: 'Our docs should move from a subdomain to a path on our main website. Is that possible with a custom domain?' },
  { topic: 'domain', english: true, text: 'After we changed our DNS provider the custom domain shows an error page instead of our documentation.' },
  { topic: 'domain', english: false, text: 'Bonjour, notre domaine personnalisé pointe vers vous avec un enregistrement CNAME, mais le navigateur dit que le certificat est invalide.' },
];

/** Each issue's most similar other issue. */
function nearest(vectors: Float32Array[]): number[] {
  return vectors.map((vector, i) => vectors.reduce((best, other, j) => (j !== i && (best < 0 || dot(vector, other) > dot(vector, vectors[best]!)) ? j : best), -1));
}

test('issues in another language are moved to English side: their nearest issue is then one on their topic, not one in their language', async () => {
  assert.equal(
    issues.map((issue) => readsAsEnglish(issue.text)),
    issues.map((issue) => issue.english),
  );
  const vectors = await embedTexts(issues.map((issue) => issue.text));
  assert.ok(vectors, 'the embedding model is there (scripts/embedding-model.sh)');
  const french = issues.flatMap((issue, i) => (issue.english ? [] : [i]));
  const before = nearest(vectors);
  assert.ok(french.filter((i) => !issues[before[i]!]!.english).length >= 2, `before: the French issues' nearest are French (${french.map((i) => issues[before[i]!]!.topic)})`);
  const aligned = alignedToEnglish(
    vectors,
    issues.map((issue) => issue.english),
  );
  const after = nearest(aligned);
  for (const i of french) assert.is(issues[after[i]!]!.topic, issues[i]!.topic, `${issues[i]!.topic}: nearest after moving`);
  for (const vector of aligned) assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-4, 'unit length');
  issues.forEach((issue, i) => issue.english && assert.equal(aligned[i], vectors[i], 'English issues stay where they are'));
});

const unit = (values: number[]) => Float32Array.from(values, (value) => value / Math.hypot(...values));
/** `count` vectors near `direction`, a little apart from each other. */
const near = (direction: number[], count: number) => Array.from({ length: count }, (_, i) => unit(direction.map((value, d) => value + (d === i % direction.length ? 0.1 : 0))));

test('the smaller side moves to the larger, and only when the larger has ten issues and the smaller two', () => {
  const englishSide = near([1, 0, 0, 0], 12);
  const otherSide = near([0, 0, 1, 1], 3);
  const moved = alignedToEnglish([...englishSide, ...otherSide], [...englishSide.map(() => true), ...otherSide.map(() => false)]);
  moved.slice(0, 12).forEach((vector, i) => assert.is(vector, englishSide[i], 'the larger side stays'));
  moved.slice(12).forEach((vector) => assert.ok(dot(vector, englishSide[0]!) > 0.9, 'moved to the English side'));
  // An organization that writes mostly in another language: its two English issues move to its side, not the reverse.
  const otherMany = [...otherSide, ...near([0, 0, 1, 1], 9)];
  const mostlyOther = alignedToEnglish([...otherMany, englishSide[0]!, englishSide[1]!], [...otherMany.map(() => false), true, true]);
  otherMany.forEach((vector, i) => assert.is(mostlyOther[i], vector, 'the larger side stays'));
  assert.ok(dot(mostlyOther[12]!, otherSide[0]!) > 0.9, 'the English issues moved to the other side');
  // Too few on one side: nothing moves.
  const lone = [...englishSide, otherSide[0]!];
  assert.equal(alignedToEnglish(lone, [...englishSide.map(() => true), false]), lone, 'a lone issue has no mean of its own');
  const fewAnchors = [...englishSide.slice(0, 9), ...otherSide];
  assert.equal(alignedToEnglish(fewAnchors, [...Array(9).fill(true), false, false, false]), fewAnchors, 'nine issues are a few topics, not a language');
});

test.run();
