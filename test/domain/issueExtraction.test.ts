import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { extractIssuesLocally } from '../../domain/conversations/extractIssues.js';

const test = suite('conversation issues: what the user asks or reports, found without a language model');
const user = (body: string) => ({ type: 'message', role: 'user', body });
const team = (body: string) => ({ type: 'message', role: 'team-member', body });
const assistant = (body: string) => ({ type: 'message', role: 'assistant', body });
const issueOf = (...parts: Array<ReturnType<typeof user>>) => extractIssuesLocally({ subject: null, parts });

test('"found it" after an answer is the answer the docs did not give: an issue; before any answer, the user found it alone: none', () => {
  const answered = issueOf(user('Is there a way to export page views as a spreadsheet?'), team('Yes: Insights, then the export button at the top right.'), user('found it, thanks!'));
  assert.is(answered.length, 1);
  assert.match(answered[0]!.title, /export page views/);
  assert.is(issueOf(user('Is there a way to export page views as a spreadsheet? Found it, sorry for the noise.')).length, 0);
  assert.is(issueOf(user('Where do I rename a space?'), user('found it'), team('Glad you did!')).length, 0);
  // A greeting before the user wrote is no answer; an assistant's answer came from the docs.
  assert.is(issueOf(team('Hi! How can we help?'), user('Where do I rename a space?'), user('found it, sorry')).length, 0);
  assert.is(issueOf(user('Where do I rename a space?'), assistant('Open the space menu, then Rename.'), user('found it, thanks')).length, 0);
  // Not finding it is the problem itself.
  assert.is(issueOf(user('I have not found it anywhere, where is the export button?')).length, 1);
  assert.is(issueOf(user("haven't found it in the settings. where do i turn on comments")).length, 1);
  // The user says they solved it themselves: none, whenever they say it.
  assert.is(issueOf(user("I couldn't publish the site."), team('What error do you see?'), user('Never mind, I solved it myself.')).length, 0);
});

test('questions asked without a question mark, inside a sentence, or in inflected problem words are issues', () => {
  assert.is(issueOf(user('can guests comment on pages or only members')).length, 1, 'an auxiliary opens it');
  assert.is(issueOf(user('Hi, did you change how page links work last week')).length, 1, 'an auxiliary and a pronoun, after a greeting');
  assert.is(issueOf(user('who can see the drafts in a change request')).length, 1, 'who opens it');
  assert.is(issueOf(user('readers leave ratings at the bottom of each page, where do i see them')).length, 1, 'a question inside the sentence');
  assert.is(issueOf(user('make the 2025 edition the default one pls')).length, 1, 'pls');
  assert.is(issueOf(user('the language switcher disappeared after the last publish')).length, 1, 'disappeared');
});

test('problems told as symptoms, as wishes to know, or in another language are issues', () => {
  assert.is(issueOf(user('sign-in to our docs keeps sending people back to our login page, safari only')).length, 1, 'keeps');
  assert.is(issueOf(user('the editor is so slow this morning, each letter shows up a second late')).length, 1, 'slow');
  assert.is(issueOf(user('mermaid charts invisible with the dark theme on')).length, 1, 'invisible');
  assert.is(issueOf(user('Need to know who edited the pricing table yesterday.')).length, 1, 'need to know');
  assert.is(issueOf(user('We would like to confirm whether one space can hold an English and a French edition.')).length, 1, 'whether');
  assert.is(issueOf(user("De zoekbalk op onze site geeft geen resultaten voor pagina's die er gewoon staan.")).length, 1, 'Dutch');
  assert.is(issueOf(user('Der PDF-Export funktioniert seit gestern nicht mehr.')).length, 1, 'German');
  assert.is(issueOf(user("L'export PDF ne marche plus depuis hier.")).length, 1, 'French');
  assert.is(issueOf(user('La búsqueda da un error cuando escribo dos palabras.')).length, 1, 'Spanish');
  assert.is(issueOf(user("Le logo n'apparaît plus depuis la mise à jour.")).length, 1, 'French, elided');
  assert.is(issueOf(user('La ricerca non trova le pagine nuove.')).length, 1, 'Italian');
  // Short ones, and one sentence in another language among English ones.
  for (const report of [
    'Geht nicht',
    'Non funziona',
    'Funktioniert nicht',
    'La page ne se charge pas.',
    'Il login non funziona',
    'Hi! Quick one from our Paris office. La recherche ne trouve pas les nouvelles pages.',
  ]) {
    assert.is(issueOf(user(report)).length, 1, report);
  }
  // Those words count as words of their own, not inside English ones ("pass", "name", "never"),
  // and only in a text that reads as another language ("faux pas", "Omaha, NE", "Mai").
  assert.is(issueOf(user('Thanks, I will pass it on to the team. The new name is great.')).length, 0);
  assert.is(issueOf(user('Sorry for the faux pas in my last email, and thanks for the help!')).length, 0);
  assert.is(issueOf(user('Thanks Mai, that did it!')).length, 0);
  assert.is(issueOf(user('All set now, thanks.\nAcme Inc., Omaha, NE 68102')).length, 0);
  // Thanks, "it works" and "no problem" in those languages are courtesies.
  for (const courtesy of [
    'Merci, ça marche !',
    'Danke, funktioniert jetzt!',
    'Bedankt, het werkt nu!',
    '¡Gracias, ya funciona!',
    'Grazie, ora funziona!',
    'Obrigado, agora funciona!',
    'Pas de souci, merci !',
    'Kein Problem, danke!',
    'Geen probleem, bedankt!',
    'De nada, gracias a vosotros.',
    'Vielen Dank, das Problem ist gelöst!',
    "Non c'è di che, grazie!",
    'Grazie mille, tutto risolto, non serve altro.',
    "Merci ! N'hésitez pas à revenir vers nous.",
    "Il n'y a pas de quoi.",
    'Keine Sorge, danke!',
    'Geen dank!',
    'No pasa nada, gracias.',
    'Aucun problème, merci.',
  ]) {
    assert.is(issueOf(user(courtesy)).length, 0, courtesy);
  }
  // The English cue words that courtesies use count only in a problem's phrase.
  for (const courtesy of [
    'Thanks for keeping me in the loop!',
    'Thanks! Let me know whether you need anything else from me.',
    'Great, that keeps things simple. Thanks!',
    'Weird, it works now. Thanks!',
    'Great, we will keep using the old theme, thanks!',
    "Thanks! We'll keep testing.",
  ]) {
    assert.is(issueOf(user(courtesy)).length, 0, courtesy);
  }
  for (const report of [
    'The publish button stays grey after I save.',
    'The table of contents looks weird on mobile.',
    'Getting an SSO loop when I sign in with Okta.',
    'The preview reloads in a loop.',
    'we keep getting logged out of the editor',
  ]) {
    assert.is(issueOf(user(report)).length, 1, report);
  }
  assert.is(issueOf(user('youtube video i added just shows a grey box on the published page')).length, 1, 'a grey box');
});

test('courtesies, auto-replies, job applications and sales pitches stay no issue', () => {
  assert.is(
    extractIssuesLocally({ subject: 'Automatic reply: Docs question', parts: [user('I am away until 3 June. Your message will not be forwarded.')] }).length,
    0,
    'an automatic reply, by its subject',
  );
  assert.is(issueOf(user('I’m out of the office until Monday with limited access to email. For urgent matters, please contact my colleague Stefan.')).length, 0, 'out of the office');
  assert.is(issueOf(user('I am out of the office until Monday, so replies will be slower than usual.')).length, 0, 'out of the office, replies slower');
  for (const subject of ['Automatic reply: Docs question', 'Automatische Antwort: Ihre Anfrage', 'Réponse automatique : votre demande']) {
    assert.is(extractIssuesLocally({ subject, parts: [user('Ich bin bis Montag nicht im Büro. Je suis absente, je ne lis pas mes mails.')] }).length, 0, subject);
  }
  assert.is(issueOf(user('Dear Hiring Manager, I am writing to apply for the Technical Writer position. Could we talk next week?')).length, 0, 'a job application');
  assert.is(issueOf(user('I have written API docs for eight years. Is the job still open? Attached my résumé.')).length, 0, 'a résumé');
  assert.is(extractIssuesLocally({ subject: 'unsubscribe', parts: [user('Please remove me from your mailing list. I never signed up for this.')] }).length, 0, 'leaving a mailing list');
  assert.is(
    extractIssuesLocally({ subject: 'Sponsorship', parts: [user('Would you be open to a 15-minute call about our meetup? Is Tuesday possible?')] }).length,
    0,
    'a pitch: two cues, the subject included',
  );
  // A user who names those things about the product still has an issue.
  assert.is(issueOf(user('Our hiring team cannot open the onboarding space, it says 403.')).length, 1);
  assert.is(issueOf(user('The OAuth application for the docs site fails with an error after login.')).length, 1);
  assert.is(issueOf(user('Do these page permissions apply for the Reviewer role too?')).length, 1);
  assert.is(issueOf(user('We set up the Okta application for the Viewer role but those users get a 403.')).length, 1);
  assert.is(issueOf(user('I am out of the office tomorrow, so please reply to Anna: our custom domain shows a 404 since the DNS change.')).length, 1);
  assert.is(extractIssuesLocally({ subject: 'Out of office hours: docs site down', parts: [user('Our docs site shows a blank page to everyone tonight.')] }).length, 1);
  assert.is(extractIssuesLocally({ subject: 'Auto-reply not working', parts: [user('Auto-reply emails to readers who comment are never sent.')] }).length, 1);
  assert.is(issueOf(user("I'm away from my desk today; our PDF export keeps cutting off code blocks, can someone look?")).length, 1);
  assert.is(issueOf(user('Would you be open to adding an SEO description field per page?')).length, 1);
  assert.is(issueOf(user('Does this setting apply for the export job too?')).length, 1);
  for (const [subject, body] of <Array<[string, string]>>[
    ['Wallet guide 404', 'Our wallet guide returns 404 since yesterday.'],
    ['Podcast page', 'The podcast player on our changelog is broken.'],
    ['Webinar page', 'The webinar embed on our page is blank.'],
    ['', 'Readers who unsubscribe from our changelog mailing list still get the emails.'],
    ['', 'The crypto wallet code samples are cut off in the PDF export.'],
  ]) {
    assert.is(extractIssuesLocally({ subject, parts: [user(body)] }).length, 1, body);
  }
});

test('courtesies and thanks stay no issue', () => {
  assert.is(issueOf(user('I am out of the office until Monday with limited access to email. For urgent matters please contact my colleague.')).length, 0);
  assert.is(issueOf(user('Just wanted to say thanks, the new editor is great!')).length, 0);
  assert.is(issueOf(user('Will do, thanks a lot!')).length, 0);
  assert.is(issueOf(user('Thanks! Have a great weekend.')).length, 0);
  assert.is(issueOf(user('Thanks for the quick help. Have a nice day!')).length, 0);
  assert.is(issueOf(user('Did that, all good now.')).length, 0);
  assert.is(issueOf(user('Could be a caching thing on our side, all good now.')).length, 0);
});

test.run();
