package org.examsuite.demo.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.examsuite.demo.client.ApiClient;
import org.examsuite.demo.client.ApiResult;
import org.examsuite.demo.client.RetryPolicy;
import org.examsuite.demo.stats.Counters;

/**
 * One simulated candidate behaving like a real exam client: starts its session, answers with think time into
 * a local sheet, autosaves debounced deltas with versions, retries by the client rules, reloads or changes
 * device when its {@link Behaviour} says so, and submits with one Idempotency-Key (or leaves it to the
 * deadline's auto-submit). Sequential on its own thread: while an autosave is retrying the simulated person
 * does not type, a simplification that changes timing, not what has to end up in the paper.
 */
public final class Candidate implements Runnable {
    /** Where the candidate's requests go (the fault proxy) and what the exam is. */
    public record Setting(URI sessionBase, URI answerBase, URI submissionBase, String examId, List<Question> questions,
            long graceMs, long thinkMeanMs, long debounceMs, long maxWaitMs, long heartbeatEveryMs, long startPatienceMs) {
    }

    private final Setting setting;
    private final ApiClient api;
    private final Counters counters;
    private final Random random;
    private final CandidateOutcome outcome;
    private final String accessCode;
    private final long startDelayMs;

    /** One counter per person: versions are monotonic on every device and never repeat across devices. */
    private long versionCounter;
    private Device device;
    private long deadlineMs;
    private boolean closed;
    private String idempotencyKey;

    /** A device: its session token, epoch and local sheet. */
    private static final class Device {
        final LocalSheet sheet;
        String token;
        long epoch;
        Long generation;
        long lastHeartbeatMs;

        Device(LocalSheet sheet) {
            this.sheet = sheet;
        }
    }

    public Candidate(Setting setting, ApiClient api, Counters counters, long seed, CandidateOutcome outcome,
            String accessCode, long startDelayMs) {
        this.setting = setting;
        this.api = api;
        this.counters = counters;
        this.random = new Random(seed);
        this.outcome = outcome;
        this.accessCode = accessCode;
        this.startDelayMs = startDelayMs;
    }

    @Override
    public void run() {
        try {
            Thread.sleep(startDelayMs);
            counters.increment("candidates.started");
            device = new Device(new LocalSheet());
            if (!startSession(device)) {
                return;
            }
            resync(versionCounter + 1);
            long start = System.currentTimeMillis();
            long span = Math.max(10_000, deadlineMs - start);
            switch (outcome.behaviour) {
                case NEVER_SUBMIT -> {
                    work(start + (long) (span * between(0.30, 0.60)), Long.MAX_VALUE, Long.MAX_VALUE);
                    flush();
                    idleUntil(deadlineMs + setting.graceMs() + 1_000);
                }
                case RELOAD -> {
                    long reloadAt = start + (long) (span * between(0.20, 0.40));
                    work(start + (long) (span * between(0.45, 0.92)), reloadAt, Long.MAX_VALUE);
                    submit();
                }
                case SWITCH_DEVICE -> {
                    long switchAt = start + (long) (span * between(0.25, 0.45));
                    work(start + (long) (span * between(0.45, 0.92)), Long.MAX_VALUE, switchAt);
                    submit();
                }
                default -> {
                    work(start + (long) (span * between(0.40, 0.95)), Long.MAX_VALUE, Long.MAX_VALUE);
                    submit();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome.errors.add("interrupted");
        } catch (RuntimeException e) {
            outcome.errors.add("driver error: " + e);
        } finally {
            outcome.finished = true;
            counters.increment("candidates.done");
        }
    }

    // ---- answering --------------------------------------------------------------------------------------------

    private void work(long workUntil, long reloadAt, long switchAt) throws InterruptedException {
        long editingEnds = Math.min(workUntil, deadlineMs);
        long lastEdit = 0;
        long firstDirty = 0;
        while (!closed && now() < editingEnds) {
            long nextEdit = Math.min(now() + (long) (setting.thinkMeanMs() * between(0.3, 1.7)), editingEnds);
            if (device.sheet.hasDirty()) {
                long sendAt = Math.min(lastEdit + setting.debounceMs(), firstDirty + setting.maxWaitMs());
                if (sendAt <= nextEdit) {
                    sleepUntil(sendAt);
                    autosave();
                }
            }
            sleepUntil(nextEdit);
            heartbeatIfDue();
            if (now() >= reloadAt) {
                reloadAt = Long.MAX_VALUE;
                reload();
            }
            if (now() >= switchAt) {
                switchAt = Long.MAX_VALUE;
                switchDevice();
            }
            if (closed || now() >= editingEnds) {
                break;
            }
            Question question = setting.questions().get(random.nextInt(setting.questions().size()));
            if (!device.sheet.hasDirty()) {
                firstDirty = now();
            }
            device.sheet.edit(question.id(), AnswerValues.next(question, random));
            lastEdit = now();
            counters.increment("edits");
        }
    }

    /** Sends every unsent change of the current device as one delta; returns false when it did not get through. */
    private boolean autosave() throws InterruptedException {
        return autosave(0);
    }

    /** {@code depth}: how many times this save already re-read the draft (bounded, so a confused server cannot loop us). */
    private boolean autosave(int depth) throws InterruptedException {
        if (closed || !device.sheet.hasDirty()) {
            return true;
        }
        long version = ++versionCounter;
        Map<String, JsonNode> changes = device.sheet.stampDirty(device.epoch, version);
        changes.forEach((id, value) -> outcome.ledger.sent(id, version, value));
        List<Map<String, Object>> delta = new ArrayList<>();
        changes.forEach((id, value) -> {
            Map<String, Object> change = new LinkedHashMap<>();
            change.put("questionId", id);
            change.put("value", value);
            delta.add(change);
        });
        ApiResult result = api.send(new ApiClient.Call("PATCH /answers", "PATCH", answers(), device.token, Map.of(),
                Map.of("version", version, "changes", delta), deadlineMs + setting.graceMs()), random::nextDouble);
        counters.increment("autosave.requests");
        if (result.ok()) {
            counters.increment("autosave.ok");
            boolean foreignStale = false;
            for (JsonNode id : result.body().path("applied")) {
                acknowledge(id.asText(), version, changes.get(id.asText()));
            }
            for (JsonNode stale : result.body().path("stale")) {
                String id = stale.path("questionId").asText();
                counters.increment("autosave.stale");
                if (stale.path("heldVersion").asLong() == version) {
                    acknowledge(id, version, changes.get(id)); // an earlier copy of this very request got there
                } else {
                    foreignStale = true;
                }
            }
            Long generation = result.body().hasNonNull("generation") ? result.body().get("generation").asLong() : null;
            boolean regenerated = device.generation != null && generation != null && !generation.equals(device.generation);
            device.generation = generation;
            if (regenerated) {
                counters.increment("autosave.generation-changed");
            }
            if ((foreignStale || regenerated) && depth < 3) {
                resync(versionCounter + 1);
                return autosave(depth + 1);
            }
            return true;
        }
        if (result.is(409, "SESSION_TAKEN_OVER")) {
            // Not a takeover this candidate made: some copy of a session start landed late. A real client asks
            // the person to continue here, which starts the session again.
            counters.increment("takeover.unexpected");
            device.sheet.resend(changes.keySet(), version);
            if (depth < 3 && startSession(device)) {
                resync(versionCounter + 1);
                return autosave(depth + 1);
            }
            return false;
        }
        if (result.is(409, "SESSION_CLOSED")) {
            counters.increment("autosave.closed");
            closed = true;
            return false;
        }
        if (!result.answered() || result.status() >= 500 || result.status() == 429) {
            device.sheet.resend(changes.keySet(), version); // gave up for now: the next autosave carries them again
            return false;
        }
        outcome.errors.add("autosave v" + version + ": " + result.describe());
        counters.increment("autosave.final-error");
        closed = true;
        return false;
    }

    private void acknowledge(String questionId, long version, JsonNode value) {
        if (value != null && device.sheet.acknowledge(questionId, version)) {
            outcome.ledger.held(questionId, version, value);
        }
    }

    /** Autosaves until nothing is left to send (or time is up). */
    private void flush() throws InterruptedException {
        while (!closed && device.sheet.hasDirty() && now() < deadlineMs + setting.graceMs()) {
            if (!autosave()) {
                Thread.sleep(500);
            }
        }
    }

    // ---- sessions, reloads, devices ----------------------------------------------------------------------------

    /** Starts (or resumes) the session on {@code target}: a new token and a higher device epoch. */
    private boolean startSession(Device target) throws InterruptedException {
        // Before the first start the deadline is unknown: a person keeps trying while the exam would still be worth it.
        long giveUp = deadlineMs > 0 ? deadlineMs + setting.graceMs() : now() + setting.startPatienceMs();
        // One key per sign-in: a copy of it delivered late gets its own epoch back instead of taking over.
        ApiResult result = api.send(new ApiClient.Call("POST /sessions", "POST", setting.sessionBase().resolve("/api/v1/sessions"),
                null, Map.of("Idempotency-Key", UUID.randomUUID().toString()), Map.of("examId", setting.examId(), "candidateId", outcome.candidateId, "accessCode", accessCode),
                giveUp), random::nextDouble);
        if (!result.ok()) {
            if (deadlineMs > 0 && (!result.answered()
                    || RetryPolicy.classify(result.status(), result.code()) == RetryPolicy.Verdict.RETRY)) {
                // A reload or device switch that could not get back in before deadline + grace (its
                // retries ran out of time on the faulty network): a real client is then done too, and
                // the auto-submit makes its paper from the draft — the verifier still checks every
                // acknowledged answer there. Counted, not a driver error.
                counters.increment("sessions.resume-gave-up-at-deadline");
            } else {
                outcome.errors.add("session start: " + result.describe());
            }
            closed = true;
            return false;
        }
        JsonNode body = result.body();
        counters.increment(result.status() == 201 ? "sessions.created" : "sessions.resumed");
        if (outcome.sessionId == null) {
            // The candidate's first session; a 200 here means the 201 was lost and the retry found the session.
            counters.increment("sessions.distinct");
            outcome.startedAtMs = now();
            if (result.status() != 201) {
                counters.increment("sessions.first-start-resumed");
            }
        }
        outcome.sessionId = body.path("sessionId").asText();
        target.token = body.path("token").asText();
        target.epoch = body.path("deviceEpoch").asLong();
        target.lastHeartbeatMs = now();
        outcome.lastToken = target.token;
        if (body.hasNonNull("deadline")) {
            deadlineMs = Instant.parse(body.get("deadline").asText()).toEpochMilli();
            outcome.deadlineMs = deadlineMs;
        }
        return true;
    }

    /**
     * Reads the server's draft and merges it into the local sheet by stamp, then pushes what the server lacks.
     * {@code firstVersionOfEpoch}: sends below it belong to older epochs, which the server refuses from now on.
     */
    private void resync(long firstVersionOfEpoch) throws InterruptedException {
        ApiResult result = api.send(new ApiClient.Call("GET /answers", "GET", answers(), device.token, Map.of(), null,
                deadlineMs + setting.graceMs()), random::nextDouble);
        if (!result.ok()) {
            if (result.answered() && result.status() != 404) {
                outcome.errors.add("draft read: " + result.describe());
            }
            return;
        }
        Map<String, ServerAnswer> server = ServerAnswer.fromDraft(result.body());
        server.forEach((id, held) -> outcome.ledger.held(id, held.version(), held.value()));
        outcome.ledger.forgetDoubtsBefore(firstVersionOfEpoch);
        if (result.body().hasNonNull("generation")) {
            device.generation = result.body().get("generation").asLong();
        }
        LocalSheet.MergeResult merge = device.sheet.merge(server);
        counters.add("merge.adopted", merge.adopted().size());
        counters.add("merge.pushed", merge.pushed().size());
    }

    private void reload() throws InterruptedException {
        counters.increment("reloads");
        if (startSession(device)) {
            resync(versionCounter + 1);
            autosave();
        }
    }

    private void switchDevice() throws InterruptedException {
        flush();
        Device old = device;
        device = new Device(new LocalSheet());
        counters.increment("device-switches");
        if (!startSession(device)) {
            return;
        }
        resync(versionCounter + 1);
        // The old device, unaware, saves one more change: it must be refused for good.
        Question question = setting.questions().get(random.nextInt(setting.questions().size()));
        long version = ++versionCounter;
        ApiResult late = api.send(new ApiClient.Call("PATCH /answers", "PATCH", answers(), old.token, Map.of(),
                Map.of("version", version, "changes", List.of(Map.of("questionId", question.id(), "value",
                        AnswerValues.next(question, random)))), deadlineMs + setting.graceMs()), random::nextDouble);
        if (late.is(409, "SESSION_TAKEN_OVER")) {
            counters.increment("takeover.refused-old-device");
        } else if (late.ok()) {
            outcome.errors.add("old device's write after the takeover was accepted: " + late.describe());
        } else {
            counters.increment("takeover.old-device-inconclusive");
        }
    }

    private void heartbeatIfDue() throws InterruptedException {
        if (now() - device.lastHeartbeatMs < setting.heartbeatEveryMs()) {
            return;
        }
        device.lastHeartbeatMs = now();
        ApiResult result = api.send(new ApiClient.Call("POST /heartbeat", "POST",
                setting.sessionBase().resolve("/api/v1/sessions/" + outcome.sessionId + "/heartbeat"), device.token, Map.of(),
                Map.of(), now() + 10_000), random::nextDouble);
        if (result.ok() && result.body() != null && result.body().hasNonNull("token")) {
            device.token = result.body().get("token").asText();
            outcome.lastToken = device.token;
        } else if (!result.ok()) {
            counters.increment("heartbeat.failed");
        }
    }

    private void idleUntil(long until) throws InterruptedException {
        while (now() < until) {
            sleepUntil(Math.min(until, now() + setting.heartbeatEveryMs()));
            if (now() < deadlineMs) {
                heartbeatIfDue();
            }
        }
    }

    // ---- submitting ----------------------------------------------------------------------------------------------

    /**
     * The submit state machine: lock editing, stamp what is unsent into the final sheet, then one
     * Idempotency-Key for the session, retried until a paper comes back or the answer is final.
     */
    private void submit() throws InterruptedException {
        if (device.sheet.hasDirty()) {
            device.sheet.stampDirty(device.epoch, ++versionCounter);
        }
        Map<String, Map<String, Object>> sheet = device.sheet.finalSheet();
        outcome.finalSheet = device.sheet.values();
        if (idempotencyKey == null) {
            idempotencyKey = UUID.randomUUID().toString();
        }
        Map<String, Object> body = Map.of("sessionId", outcome.sessionId, "answers", sheet);
        ApiClient.Call call = new ApiClient.Call("POST /submissions", "POST", setting.submissionBase().resolve(
                "/api/v1/submissions"), device.token, Map.of("Idempotency-Key", idempotencyKey), body,
                Math.max(deadlineMs + setting.graceMs(), now()) + 60_000);
        counters.increment("submits");
        counters.add("submit.calls", outcome.behaviour == Behaviour.DOUBLE_SUBMIT ? 3 : 1);
        if (outcome.behaviour == Behaviour.DOUBLE_SUBMIT) {
            long seed = random.nextLong();
            CompletableFuture<ApiResult> second = CompletableFuture.supplyAsync(() -> sendQuietly(call, new Random(seed)),
                    task -> new Thread(task, "double-click").start());
            record(api.send(call, random::nextDouble));
            record(join(second));
            // Another tab, another key: the session already has its paper, so the answer is that paper.
            ApiClient.Call otherTab = new ApiClient.Call(call.endpoint(), call.method(), call.uri(), call.bearer(),
                    Map.of("Idempotency-Key", UUID.randomUUID().toString()), body, call.giveUpAtEpochMs());
            record(api.send(otherTab, random::nextDouble));
        } else {
            record(api.send(call, random::nextDouble));
        }
    }

    private void record(ApiResult result) {
        if (result == null) {
            return;
        }
        if (result.ok() && result.body() != null && result.body().hasNonNull("paperId")) {
            outcome.paperIds.add(result.body().get("paperId").asText());
            outcome.submittedBy = result.body().path("submittedBy").asText(null);
            counters.increment(result.replayed() ? "submit.replayed" : "submit.ok." + result.status());
        } else {
            outcome.errors.add("submit: " + result.describe());
            counters.increment("submit.failed");
        }
    }

    private ApiResult sendQuietly(ApiClient.Call call, Random own) {
        try {
            return api.send(call, own::nextDouble);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static ApiResult join(CompletableFuture<ApiResult> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            return null;
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private URI answers() {
        return setting.answerBase().resolve("/api/v1/answers/" + outcome.sessionId);
    }

    private double between(double low, double high) {
        return low + random.nextDouble() * (high - low);
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long wait = epochMs - now();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }
}
