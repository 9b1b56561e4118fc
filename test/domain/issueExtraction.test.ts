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
  assert.is(issueOf(user("I have not found it anywhere, where is the export button?")).length, 1);
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

test('courtesies, auto-replies and thanks stay no issue', () => {
  assert.is(issueOf(user('I am out of the office until Monday with limited access to email. For urgent matters please contact my colleague.')).length, 0);
  assert.is(issueOf(user('Just wanted to say thanks, the new editor is great!')).length, 0);
  assert.is(issueOf(user('Will do, thanks a lot!')).length, 0);
  assert.is(issueOf(user('Thanks! Have a great weekend.')).length, 0);
  assert.is(issueOf(user('Thanks for the quick help. Have a nice day!')).length, 0);
  assert.is(issueOf(user('Did that, all good now.')).length, 0);
  assert.is(issueOf(user('Could be a caching thing on our side, all good now.')).length, 0);
});

test.run();
