// The SDK in a React component: start (or resume after a reload), autosave on every change,
// submit once. The SDK owns saving and retries; React only mirrors its events into state.
import { useEffect, useState } from 'react';
import { ExamClient } from '@examsuite/exam-client';

export function ExamPage({ credentials, options }) {
  const [client, setClient] = useState(null);
  const [status, setStatus] = useState(null);
  const [answers, setAnswers] = useState({});
  const [paper, setPaper] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    let opened = null;
    let cancelled = false;
    // Reload: resume() reopens this browser's session from IndexedDB (offline too) before signing in again.
    (async () => {
      opened = (await ExamClient.resume(undefined, options)) ?? (await ExamClient.start(credentials, options));
      if (cancelled) return opened.close();
      opened.on('status', setStatus);
      // A merge with the server's draft or another device replaced answers: re-read them.
      opened.on('answers', () => setAnswers(opened.answers()));
      opened.on('submitted', setPaper);
      setAnswers(opened.answers());
      setStatus(opened.status);
      setPaper(opened.paper);
      setClient(opened);
    })().catch(setError);
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [credentials, options]);

  if (error) return <p role="alert">{error.detail ?? error.message}</p>;
  if (!client) return <p>Opening your exam…</p>;
  if (paper) return <p>Submitted. Receipt: {paper.paperId}</p>;

  // setAnswer writes IndexedDB first, then autosaves after the debounce; rejections are bad values.
  const change = (id, value) => {
    setAnswers((a) => ({ ...a, [id]: value }));
    client.setAnswer(id, value).catch(setError);
  };
  const editable = client.isEditable();

  return (
    <form onSubmit={(e) => { e.preventDefault(); client.submit().then(setPaper, setError); }}>
      <p aria-live="polite">{status?.message}</p>
      {client.questions.map((q) => (
        <label key={q.id}>
          {q.prompt}
          <input disabled={!editable} value={answers[q.id] ?? ''} onChange={(e) => change(q.id, e.target.value)} />
        </label>
      ))}
      {/* submit() is idempotent: a double click shares one request and one paper. */}
      <button type="submit" disabled={!editable || status?.state === 'submitting'}>Submit</button>
    </form>
  );
}
