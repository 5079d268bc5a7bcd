// Compile-only check that sdk/index.d.ts describes a usable API (npm run typecheck).
import { ExamClient, ApiError, STATUS_MESSAGES, mergeDraft, DEFAULT_LIVE, REVIEW_FLAGS_ID, type StatusEvent, type Paper, type LockReason, type LiveEvent, type LiveState } from '../../sdk/index.js';

async function main(): Promise<void> {
  const client = (await ExamClient.resume()) ?? (await ExamClient.start({ examId: 'e', candidateId: 'c', accessCode: 'x' }, { debounceMs: 1500, baseUrls: { answer: 'https://a' } }));
  const off = client.on('status', (s: StatusEvent) => console.log(s.state, s.message, s.pending));
  client.on('lock', ({ reason }: { reason: LockReason | null }) => console.log(reason));
  client.on('live', (e: LiveEvent) => console.log(e.state, e.code, e.retryInMs));
  const live: LiveState = client.liveState;
  await ExamClient.start({ examId: 'e', candidateId: 'c', accessCode: 'x' }, { live: { pingMs: 10_000 }, WebSocket: null });
  await ExamClient.start({ examId: 'e', candidateId: 'c', accessCode: 'x' }, { live: false, WebSocket: globalThis.WebSocket });
  // @ts-expect-error the live state is one of five names
  const wrong: LiveState = 'opened';
  console.log(live, wrong, DEFAULT_LIVE.heartbeatMs);
  await client.setAnswer('q1', '4');
  await client.setAnswer('q2', ['2', '5']);
  await client.setAnswer('q3', true);
  await client.setAnswer('q5', 3.14);
  await client.setAnswer('q6', null);
  // @ts-expect-error objects are not answer values
  await client.setAnswer('q7', { a: 1 });
  const flagged: string[] = (await client.setFlag('q2', true)).flagged;
  client.on('flags', ({ questionIds }: { questionIds: string[] }) => console.log(questionIds.length));
  console.log(flagged, client.reviewFlags(), client.isFlagged('q2'), REVIEW_FLAGS_ID === '~review', client.questions[0]?.format === 'markdown');
  // @ts-expect-error a flag is a boolean
  await client.setFlag('q2', 'yes');
  const left: number | null = client.remainingMs();
  const paper: Paper = await client.submit();
  console.log(left, paper.paperId, STATUS_MESSAGES['offline-saved-locally'], client.state === 'submitted');
  const plan = mergeDraft(new Map(), { q1: { value: '4', version: 1 } }, { tokenEpoch: 1 });
  console.log(plan.adopt.length, new ApiError({ code: 'SESSION_TAKEN_OVER' }).code, new ApiError({ code: 'HTTP_418' }).code);
  // @ts-expect-error a code no service answers with is not an ErrorCode
  new ApiError({ code: 'SESION_TAKEN_OVER' });
  off();
  await client.close();
}
void main;
