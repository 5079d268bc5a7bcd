package org.examsuite.demo.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One stateful flow: a candidate's real steps in a random order (autosave, reload, takeover, stale write, submit,
 * replay, another key, force-submit) with refused garbage between them, checked against a model of the draft:
 * per question the value with the highest stamp; exactly one paper, holding the newest answers.
 */
final class Flow {
    private static final List<String> QUESTIONS = List.of("q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08", "q09",
            "q10", "q11", "q12");

    private final Fuzz fuzz;
    private final Random random;
    private final Fuzz.Live live;
    private final Map<String, Fuzz.Stamp> model = new TreeMap<>();
    private final Set<String> papers = new HashSet<>();
    private final List<String> steps = new ArrayList<>();
    private long version = 1;
    private String oldToken;
    private String lastKey;
    private ObjectNode lastSheet;
    private boolean submitted;

    Flow(Fuzz fuzz, int n) {
        this.fuzz = fuzz;
        this.random = fuzz.random();
        this.live = new Fuzz.Live("fz-flow-" + n);
    }

    void run() {
        fuzz.start(fuzz.examMain(), live);
        steps.add("start");
        int count = 6 + random.nextInt(10);
        for (int i = 0; i < count; i++) {
            int pick = random.nextInt(10);
            if (pick < 4) {
                autosave();
            } else if (pick < 5) {
                reload();
            } else if (pick < 6) {
                takeover();
            } else if (pick < 7) {
                stale();
            } else if (pick < 8) {
                awkwardValue();
            } else {
                garbage();
            }
        }
        if (random.nextBoolean()) {
            submit(UUID.randomUUID().toString());
            replay();
            if (random.nextBoolean()) {
                forceSubmit();
            }
            submit(UUID.randomUUID().toString());
        } else {
            forceSubmit();
            submit(UUID.randomUUID().toString());
            replay();
        }
        garbage();
        closedAutosave();
        checkPaper();
    }

    private void fail(String what) {
        fuzz.findings().add("flow-invariant", live.candidateId + ": " + what + " (steps: " + String.join(",", steps) + ")", null, null);
    }

    private void autosave() {
        steps.add("autosave");
        version++;
        ObjectNode body = Fuzz.NODES.objectNode().put("version", version);
        ArrayNode changes = body.putArray("changes");
        List<String> ids = new ArrayList<>(QUESTIONS);
        java.util.Collections.shuffle(ids, random);
        for (String q : ids.subList(0, 1 + random.nextInt(3))) {
            JsonNode value = random.nextInt(8) == 0 ? Fuzz.NODES.nullNode() : value(q, random);
            changes.addObject().put("questionId", q).set("value", value);
            model.put(q, new Fuzz.Stamp(live.epoch, version, value));
        }
        RawHttp.Response r = fuzz.json(fuzz.options().answerPort(), "PATCH", "/api/v1/answers/" + live.sessionId, live.token, body, List.of());
        fuzz.check("flow autosave", null, r, false);
        if (r.status() != 200) {
            fail("autosave answered " + r.status() + " " + Fuzz.abbreviate(r.text(), 200));
        }
    }

    /** A valid essay answer made of what breaks storage layers: NUL, escapes, bidi overrides, astral characters. */
    private void awkwardValue() {
        steps.add("awkward-value");
        version++;
        String[] texts = {"nul\u0000inside", "\u001b[31mred\u202eevil", "emoji \ud83d\ude00 and \u00e9", "quote \" back\\slash",
                "'; DROP TABLE answers; --", "line\r\nbreak\ttab"};
        JsonNode value = Fuzz.NODES.textNode(texts[random.nextInt(texts.length)]);
        ObjectNode body = Fuzz.NODES.objectNode().put("version", version);
        body.putArray("changes").addObject().put("questionId", "q11").set("value", value);
        RawHttp.Response r = fuzz.json(fuzz.options().answerPort(), "PATCH", "/api/v1/answers/" + live.sessionId, live.token, body, List.of());
        fuzz.check("flow awkward autosave", null, r, false);
        if (r.status() == 200) {
            model.put("q11", new Fuzz.Stamp(live.epoch, version, value));
        } else if (r.status() != 400) {
            fail("awkward essay answer got " + r.status() + " " + Fuzz.abbreviate(r.text(), 200));
        }
    }

    private void stale() {
        // A write of the current device below what it already wrote for a question must be listed stale and change nothing.
        String q = model.entrySet().stream().filter(e -> e.getValue().epoch() == live.epoch && e.getValue().version() > 1)
                .map(Map.Entry::getKey).findFirst().orElse(null);
        if (q == null) {
            return;
        }
        steps.add("stale");
        ObjectNode body = Fuzz.NODES.objectNode().put("version", 1);
        body.putArray("changes").addObject().put("questionId", q).set("value", value(q, random));
        RawHttp.Response r = fuzz.json(fuzz.options().answerPort(), "PATCH", "/api/v1/answers/" + live.sessionId, live.token, body, List.of());
        fuzz.check("flow stale autosave", null, r, false);
        JsonNode parsed = Fuzz.parse(r.body());
        if (r.status() != 200 || parsed == null || parsed.path("applied").size() != 0) {
            fail("stale autosave was not stale: " + r.status() + " " + Fuzz.abbreviate(r.text(), 200));
        }
    }

    private void reload() {
        steps.add("reload");
        JsonNode draft = fuzz.draft(live);
        if (draft == null) {
            fail("reload failed");
            return;
        }
        for (Map.Entry<String, Fuzz.Stamp> e : model.entrySet()) {
            JsonNode held = draft.path("answers").path(e.getKey());
            if (!same(held.path("value"), e.getValue().value()) || held.path("version").asLong() != e.getValue().version()
                    || draft.path("epochs").path(e.getKey()).asLong() != e.getValue().epoch()) {
                fail("draft holds " + held + " (epoch " + draft.path("epochs").path(e.getKey()) + ") for " + e.getKey()
                        + ", the newest write was " + e.getValue());
            }
        }
    }

    private void takeover() {
        steps.add("takeover");
        oldToken = live.token;
        long before = live.epoch;
        fuzz.start(fuzz.examMain(), live);
        if (live.epoch != before + 1) {
            fail("takeover gave epoch " + live.epoch + " after " + before);
        }
        // The older device's write must be refused and change nothing.
        ObjectNode body = Fuzz.NODES.objectNode().put("version", ++version);
        body.putArray("changes").addObject().put("questionId", "q07").put("value", "from the old device");
        RawHttp.Response r = fuzz.json(fuzz.options().answerPort(), "PATCH", "/api/v1/answers/" + live.sessionId, oldToken, body, List.of());
        fuzz.check("flow old-device autosave", null, r, false);
        JsonNode parsed = Fuzz.parse(r.body());
        if (r.status() != 409 || parsed == null || !"SESSION_TAKEN_OVER".equals(parsed.path("code").asText())) {
            fail("old device's autosave answered " + r.status() + " " + Fuzz.abbreviate(r.text(), 200));
        }
    }

    private void garbage() {
        steps.add("garbage");
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            String[] refused = {"truncated", "not-json", "invalid-utf8", "deep-nesting", "nan-bare"};
            String kind = refused[random.nextInt(refused.length)];
            boolean submission = random.nextBoolean();
            JsonNode valid = submission ? sheet() : Fuzz.NODES.objectNode().put("version", ++version)
                    .set("changes", Fuzz.NODES.arrayNode().add(Fuzz.NODES.objectNode().put("questionId", "q01").put("value", "5")));
            Mutators.Body body = Mutators.body(valid, kind, random);
            List<String[]> headers = new ArrayList<>();
            String token = random.nextInt(3) == 0 ? fuzz.forged().get(random.nextInt(fuzz.forged().size())).token() : live.token;
            headers.add(new String[] {"Authorization", "Bearer " + token});
            headers.add(new String[] {"Content-Type", "application/json"});
            if (submission) {
                headers.add(new String[] {"Idempotency-Key", UUID.randomUUID().toString()});
            }
            byte[] bytes = RawHttp.build(submission ? "POST" : "PATCH", submission ? "/api/v1/submissions" : "/api/v1/answers/"
                    + live.sessionId, headers, body.bytes());
            RawHttp.Response r = fuzz.send("flow-garbage", submission ? fuzz.options().submissionPort() : fuzz.options().answerPort(),
                    bytes, false);
            fuzz.check("flow garbage " + kind, bytes, r, false);
            if (r.status() / 100 == 2 && !(submission && submitted)) {
                fuzz.findings().add("accepted-garbage", "flow " + kind + " " + (submission ? "submission" : "autosave"), bytes, r);
            }
        }
    }

    private ObjectNode sheet() {
        ObjectNode sheet = Fuzz.NODES.objectNode().put("sessionId", live.sessionId);
        ObjectNode answers = sheet.putObject("answers");
        model.forEach((q, s) -> answers.putObject(q).put("version", s.version()).set("value", s.value()));
        return sheet;
    }

    private void submit(String key) {
        steps.add("submit");
        lastKey = key;
        lastSheet = sheet();
        RawHttp.Response r = fuzz.json(fuzz.options().submissionPort(), "POST", "/api/v1/submissions", live.token, lastSheet,
                List.<String[]>of(new String[] {"Idempotency-Key", key}));
        fuzz.check("flow submit", null, r, false);
        JsonNode paper = Fuzz.parse(r.body());
        int expected = submitted ? 200 : 201;
        if (r.status() != expected || paper == null) {
            fail("submit answered " + r.status() + " (expected " + expected + ") " + Fuzz.abbreviate(r.text(), 200));
            return;
        }
        papers.add(paper.path("paperId").asText());
        if (!submitted) {
            // The sheet wins over the draft by its epoch: from here the paper is the model as it stands.
            model.replaceAll((q, s) -> new Fuzz.Stamp(live.epoch, s.version(), s.value()));
        }
        submitted = true;
    }

    private void replay() {
        if (lastKey == null) {
            return;
        }
        steps.add("replay");
        RawHttp.Response r = fuzz.json(fuzz.options().submissionPort(), "POST", "/api/v1/submissions", live.token, lastSheet,
                List.<String[]>of(new String[] {"Idempotency-Key", lastKey}));
        fuzz.check("flow replay", null, r, false);
        JsonNode paper = Fuzz.parse(r.body());
        if (r.status() / 100 != 2 || paper == null) {
            fail("replay answered " + r.status() + " " + Fuzz.abbreviate(r.text(), 200));
            return;
        }
        papers.add(paper.path("paperId").asText());
    }

    private void forceSubmit() {
        steps.add("force-submit");
        RawHttp.Response r = fuzz.json(fuzz.options().sessionPort(), "POST", "/api/v1/sessions/" + live.sessionId + "/force-submit",
                fuzz.options().operatorToken(), null, List.of());
        fuzz.check("flow force-submit", null, r, false);
        JsonNode session = Fuzz.parse(r.body());
        if (r.status() != 200 || session == null || !session.hasNonNull("paperId")) {
            fail("force-submit answered " + r.status() + " " + Fuzz.abbreviate(r.text(), 200));
            return;
        }
        papers.add(session.path("paperId").asText());
        submitted = true;
    }

    private void closedAutosave() {
        steps.add("autosave-after-paper");
        ObjectNode body = Fuzz.NODES.objectNode().put("version", ++version);
        body.putArray("changes").addObject().put("questionId", "q08").put("value", "too late");
        RawHttp.Response r = fuzz.json(fuzz.options().answerPort(), "PATCH", "/api/v1/answers/" + live.sessionId, live.token, body, List.of());
        fuzz.check("flow closed autosave", null, r, false);
        JsonNode parsed = Fuzz.parse(r.body());
        if (r.status() != 409 || parsed == null || !"SESSION_CLOSED".equals(parsed.path("code").asText())) {
            fail("autosave after the paper answered " + r.status() + " " + Fuzz.abbreviate(r.text(), 200));
        }
    }

    private void checkPaper() {
        if (papers.size() != 1) {
            fail("papers seen: " + papers);
            return;
        }
        String paperId = papers.iterator().next();
        JsonNode paper = fuzz.get(fuzz.options().submissionPort(), "/api/v1/submissions/" + paperId, fuzz.options().operatorToken());
        if (paper == null) {
            fail("paper " + paperId + " unreadable");
            return;
        }
        Map<String, JsonNode> expected = new TreeMap<>();
        model.forEach((q, s) -> {
            if (!s.value().isNull()) {
                expected.put(q, s.value());
            }
        });
        Map<String, JsonNode> got = new TreeMap<>();
        paper.path("answers").fields().forEachRemaining(e -> {
            if (!e.getValue().path("value").isNull()) {
                got.put(e.getKey(), e.getValue().path("value"));
            }
        });
        if (!sameValues(expected, got)) {
            fail("paper holds " + got + ", the newest answers were " + expected);
        }
    }

    /** A valid value for the demo exam's question {@code q} (ExamSetup: two of each type). */
    static JsonNode value(String q, Random random) {
        return switch (q) {
            case "q01" -> Fuzz.NODES.textNode(new String[] {"3", "4", "5"}[random.nextInt(3)]);
            case "q02" -> Fuzz.NODES.textNode(new String[] {"Rome", "Milan", "Turin"}[random.nextInt(3)]);
            case "q03" -> Fuzz.NODES.arrayNode().add("2").add(random.nextBoolean() ? "5" : "9");
            case "q04" -> Fuzz.NODES.arrayNode().add(random.nextBoolean() ? "2" : "1").add("6");
            case "q05", "q06" -> Fuzz.NODES.booleanNode(random.nextBoolean());
            case "q09", "q10" -> Fuzz.NODES.numberNode(random.nextInt(1000) / 100.0 + 0.5);
            default -> Fuzz.NODES.textNode("answer " + random.nextInt(100_000) + " \u00e9\u6f22");
        };
    }

    static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    static boolean sameValues(Map<String, JsonNode> expected, Map<String, JsonNode> got) {
        if (!expected.keySet().equals(got.keySet())) {
            return false;
        }
        return expected.entrySet().stream().allMatch(e -> same(e.getValue(), got.get(e.getKey())));
    }
}
