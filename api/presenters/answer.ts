import { answerDocument, type Answer } from '../../domain/answers/index.js';

/** `SearchAIAnswer`: the answer as markdown or a JSON Document, and the pages it comes from. */
export async function presentAnswer(answer: Answer, format: 'document' | 'markdown') {
  return {
    answer: format === 'markdown' ? { markdown: answer.markdown } : { document: await answerDocument(answer) },
    followupQuestions: answer.followupQuestions,
    sources: answer.sources.map((source) => ({
      type: 'page' as const,
      page: source.pageId,
      revision: source.revision,
      space: source.spaceId,
      sections: source.sections,
      reason: answer.method === 'model' ? `Cited in the answer: ${source.title}` : `Quoted in the answer: ${source.title}`,
    })),
  };
}
