package org.examsuite.grading.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.answer.QuestionType;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.grading.clients.RemoteFailure;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.scoring.ExamKey;
import org.examsuite.grading.scoring.Question;
import org.examsuite.grading.steps.ExamCache;

/**
 * An exam's results for the exam body: the listing, the export and the item statistics, read
 * through Panache (read-only entities; the saga writes results over JDBC). The export and the
 * statistics walk the exam's papers a chunk at a time, each chunk in its own short reactive
 * session, so a 50,000-paper exam is never in memory at once.
 */
@ApplicationScoped
public class ExamResults {
    /** Papers per database round trip of the export and the statistics. */
    static final int CHUNK = 500;
    static final List<String> STATUSES = List.of(ResultStore.PENDING, ResultStore.GRADED, ResultStore.NEEDS_REVIEW,
            ResultStore.FAILED);

    public enum Format {
        CSV, JSON;

        public static Format parse(String value) {
            if ("csv".equals(value)) {
                return CSV;
            }
            if ("json".equals(value)) {
                return JSON;
            }
            throw new ApiException(400, ProblemCode.INVALID_FIELD, "format must be csv or json.").with("field", "format");
        }
    }

    private final ResultRepository repository;
    private final ExamCache exams;
    private final ObjectMapper mapper;

    ExamResults(ResultRepository repository, ExamCache exams, ObjectMapper mapper) {
        this.repository = repository;
        this.exams = exams;
        this.mapper = mapper;
    }

    public static String status(String value) {
        if (value == null || STATUSES.contains(value)) {
            return value;
        }
        throw new ApiException(400, ProblemCode.INVALID_FIELD, "status must be one of " + String.join(", ", STATUSES) + ".")
                .with("field", "status");
    }

    /** A page of the exam's current results. An exam without any result is looked up: unknown is 404, known is an empty page. */
    public Uni<ResultPage> list(String examId, String status, String after, int limit) {
        String afterPaperId = Cursor.decode(after);
        return Panache.withSession(() -> repository.currentPage(examId, status, afterPaperId, limit + 1)
                        .chain(rows -> rows.isEmpty() && afterPaperId.isEmpty()
                                ? repository.hasAny(examId).map(any -> new Found(rows, any))
                                : Uni.createFrom().item(new Found(rows, true))))
                .chain(found -> found.examKnown() ? Uni.createFrom().item(found.rows())
                        : exam(examId).replaceWith(found.rows()))
                .map(rows -> {
                    List<ResultPage.ResultEntry> entries = new ArrayList<>();
                    for (ResultEntity row : rows.subList(0, Math.min(limit, rows.size()))) {
                        boolean graded = ResultStore.GRADED.equals(row.status);
                        entries.add(new ResultPage.ResultEntry(row.paperId, row.sessionId, row.candidateId, row.run, row.status,
                                graded ? plain(row.score) : null, plain(row.maxScore), row.reason, row.keyRevision,
                                row.archiveSeq, gradedAt(row)));
                    }
                    String next = rows.size() > limit ? Cursor.encode(entries.get(entries.size() - 1).paperId()) : null;
                    return new ResultPage(examId, entries, next);
                });
    }

    private record Found(List<ResultEntity> rows, boolean examKnown) {
    }

    /** A keyset page of current results, in a reactive session of its own: a walk holds no session between chunks. */
    private Uni<List<ResultEntity>> page(String examId, String status, String afterPaperId, int limit) {
        return Panache.withSession(() -> repository.currentPage(examId, status, afterPaperId, limit));
    }

    /**
     * The exam with its questions (session-service, cached briefly as for grading): 404
     * EXAM_NOT_FOUND if session-service does not know it, 503 if it cannot be asked. The blocking
     * client runs on a worker thread; what follows continues on the request's Vert.x context.
     */
    public Uni<ExamKey> exam(String examId) {
        Context context = Vertx.currentContext();
        Uni<ExamKey> fetched = Uni.createFrom().item(() -> fetch(examId)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        return context == null ? fetched : fetched.emitOn(command -> context.runOnContext(ignored -> command.run()));
    }

    private ExamKey fetch(String examId) {
        try {
            return exams.get(examId, 0);
        } catch (RemoteFailure failure) {
            if (!failure.isTransient() && failure.status() == 404) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "session-service knows no such exam.");
            }
            throw unavailable();
        } catch (FaultToleranceException | IllegalArgumentException e) {
            throw unavailable();
        }
    }

    private static ApiException unavailable() {
        return ApiException.retryLater(503, ProblemCode.UPSTREAM_UNAVAILABLE, "session-service could not be asked for the exam.", 5);
    }

    /** The exam's current results, a chunk at a time in paper id order (only those with {@code status}, if given). */
    Multi<List<ResultEntity>> chunks(String examId, String status) {
        return chunks(examId, status, "");
    }

    /** As {@link #chunks(String, String)}, from the first paper after {@code afterPaperId} ("" for the first). */
    private Multi<List<ResultEntity>> chunks(String examId, String status, String afterPaperId) {
        return Multi.createBy().repeating()
                .uni(() -> new String[] {afterPaperId}, last -> page(examId, status, last[0], CHUNK)
                        .invoke(rows -> {
                            if (!rows.isEmpty()) {
                                last[0] = rows.get(rows.size() - 1).paperId;
                            }
                        }))
                .until(List::isEmpty);
    }

    /** What an export needs before its response is committed: the exam, and the first chunk of its rows. */
    public record ExportStart(ExamKey exam, List<ResultEntity> firstChunk) {
    }

    /**
     * The exam (session-service) and the export's first chunk (PostgreSQL), read before the 200
     * and its headers are sent: while either cannot be reached the export answers 503 with
     * Retry-After like every other endpoint, instead of a 200 whose body breaks off at once.
     */
    public Uni<ExportStart> startExport(String examId) {
        return exam(examId).chain(exam -> page(examId, null, "", CHUNK).map(rows -> new ExportStart(exam, rows)));
    }

    /**
     * The export's body: a header, then one chunk of rows per database round trip, written as
     * they come (the first one read already by {@link #startExport}).
     */
    public Multi<byte[]> export(String examId, ExportStart start, Format format) {
        List<String> questions = new ArrayList<>(start.exam().questions().keySet());
        boolean[] first = {true};
        List<ResultEntity> firstChunk = start.firstChunk();
        Multi<List<ResultEntity>> chunks = firstChunk.isEmpty() ? Multi.createFrom().empty()
                : Multi.createBy().concatenating().streams(Multi.createFrom().item(firstChunk),
                        chunks(examId, null, firstChunk.get(firstChunk.size() - 1).paperId));
        Multi<byte[]> rows = chunks.map(chunk -> format == Format.CSV ? csv(chunk, questions)
                : json(chunk, first));
        byte[] head = format == Format.CSV ? csvHeader(questions) : "[".getBytes(StandardCharsets.UTF_8);
        // the JSON array's end depends on whether any row was written: decided once the rows are
        Multi<byte[]> tail = format == Format.CSV ? Multi.createFrom().empty()
                : Multi.createFrom().item(() -> (first[0] ? "]\n" : "\n]\n").getBytes(StandardCharsets.UTF_8));
        return Multi.createBy().concatenating().streams(Multi.createFrom().item(head), rows, tail);
    }

    private static byte[] csvHeader(List<String> questions) {
        StringBuilder line = new StringBuilder("paperId,sessionId,candidateId,run,status,score,maxScore");
        questions.forEach(question -> line.append(',').append(Csv.text("mark." + question)));
        line.append(",gradedAt,archiveSeq").append(Csv.LINE_END);
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    private byte[] csv(List<ResultEntity> chunk, List<String> questions) {
        StringBuilder out = new StringBuilder(chunk.size() * 128);
        for (ResultEntity row : chunk) {
            boolean graded = ResultStore.GRADED.equals(row.status);
            Map<String, BigDecimal> marks = graded ? marks(row.marks) : Map.of();
            out.append(Csv.text(row.paperId)).append(',').append(Csv.text(row.sessionId)).append(',')
                    .append(Csv.text(row.candidateId)).append(',').append(row.run).append(',').append(Csv.text(row.status))
                    .append(',').append(Csv.number(graded ? plain(row.score) : null)).append(',')
                    .append(Csv.number(plain(row.maxScore)));
            for (String question : questions) {
                out.append(',').append(Csv.number(marks.get(question)));
            }
            Instant gradedAt = gradedAt(row);
            out.append(',').append(Csv.text(gradedAt == null ? null : gradedAt.toString())).append(',')
                    .append(Csv.number(row.archiveSeq)).append(Csv.LINE_END);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private byte[] json(List<ResultEntity> chunk, boolean[] first) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.size() * 192);
        try {
            for (ResultEntity row : chunk) {
                out.write((first[0] ? "\n" : ",\n").getBytes(StandardCharsets.UTF_8));
                first[0] = false;
                boolean graded = ResultStore.GRADED.equals(row.status);
                try (JsonGenerator json = mapper.getFactory().createGenerator(out)) {
                    json.writeStartObject();
                    json.writeStringField("paperId", row.paperId);
                    json.writeStringField("sessionId", row.sessionId);
                    json.writeStringField("candidateId", row.candidateId);
                    json.writeNumberField("run", row.run);
                    json.writeStringField("status", row.status);
                    writeNumber(json, "score", graded ? plain(row.score) : null);
                    writeNumber(json, "maxScore", plain(row.maxScore));
                    if (graded) {
                        json.writeObjectFieldStart("marks");
                        for (Map.Entry<String, BigDecimal> mark : marks(row.marks).entrySet()) {
                            writeNumber(json, mark.getKey(), mark.getValue());
                        }
                        json.writeEndObject();
                    } else {
                        json.writeNullField("marks");
                    }
                    Instant gradedAt = gradedAt(row);
                    json.writeStringField("gradedAt", gradedAt == null ? null : gradedAt.toString());
                    if (row.archiveSeq == null) {
                        json.writeNullField("archiveSeq");
                    } else {
                        json.writeNumberField("archiveSeq", row.archiveSeq);
                    }
                    json.writeEndObject();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void writeNumber(JsonGenerator json, String field, BigDecimal value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeNumberField(field, value);
        }
    }

    /** Item statistics over the exam's GRADED current results, in one pass (ItemStatistics). */
    public Uni<StatisticsView> statistics(String examId, int bins) {
        return exam(examId).chain(exam -> {
            List<ItemStatistics.Item> items = items(exam);
            ItemStatistics statistics = new ItemStatistics(items, bins);
            return Panache.withSession(() -> repository.countByStatus(examId))
                    .chain(byStatus -> chunks(examId, ResultStore.GRADED)
                            .invoke(chunk -> chunk.forEach(row -> statistics.add(paper(row))))
                            .onItem().ignoreAsUni()
                            .map(ignored -> view(examId, exam, statistics.result(), byStatus, bins)));
        });
    }

    private static List<ItemStatistics.Item> items(ExamKey exam) {
        List<ItemStatistics.Item> items = new ArrayList<>();
        for (Question question : exam.questions().values()) {
            int options = switch (question.type()) {
                case SINGLE, MULTIPLE -> question.options().size();
                case TRUE_FALSE -> 2;
                default -> 0;
            };
            items.add(new ItemStatistics.Item(question.id(), question.type().name(), question.points().doubleValue(), options));
        }
        return items;
    }

    private ItemStatistics.Paper paper(ResultEntity row) {
        Map<String, Double> marks = new HashMap<>();
        marks(row.marks).forEach((question, score) -> marks.put(question, score == null ? null : score.doubleValue()));
        Map<String, int[]> choices = null;
        if (row.choices != null) {
            choices = new HashMap<>();
            for (Map.Entry<String, JsonNode> entry : iterable(read(row.choices).fields())) {
                JsonNode indices = entry.getValue();
                int[] chosen = new int[indices.size()];
                for (int i = 0; i < chosen.length; i++) {
                    chosen[i] = indices.get(i).asInt(-1);
                }
                choices.put(entry.getKey(), chosen);
            }
        }
        return new ItemStatistics.Paper(row.score == null ? 0 : row.score.doubleValue(),
                row.maxScore == null ? 0 : row.maxScore.doubleValue(), marks, choices);
    }

    private static StatisticsView view(String examId, ExamKey exam, ItemStatistics.Result result, Map<String, Long> byStatus,
            int bins) {
        Map<String, Long> excludedByStatus = new TreeMap<>(byStatus);
        excludedByStatus.remove(ResultStore.GRADED);
        long excluded = excludedByStatus.values().stream().mapToLong(Long::longValue).sum();
        List<StatisticsView.Bin> histogram = new ArrayList<>();
        for (int b = 0; b < bins; b++) {
            histogram.add(new StatisticsView.Bin(percent(100.0 * b / bins), percent(100.0 * (b + 1) / bins), result.histogram()[b]));
        }
        List<StatisticsView.QuestionStatistics> questions = new ArrayList<>();
        for (ItemStatistics.ItemResult item : result.items()) {
            Question question = exam.questions().get(item.item().questionId());
            List<StatisticsView.OptionCount> options = null;
            if (item.item().optionCount() > 0) {
                options = new ArrayList<>();
                for (int i = 0; i < item.optionCounts().length; i++) {
                    String label = question.type() == QuestionType.TRUE_FALSE ? (i == 0 ? "true" : "false") : question.options().get(i);
                    options.add(new StatisticsView.OptionCount(i, label, item.optionCounts()[i]));
                }
            }
            questions.add(new StatisticsView.QuestionStatistics(question.id(), question.type().name(), plain(question.points()),
                    item.papers(), figure(item.meanScore()), figure(item.facility()), figure(item.discrimination()), options,
                    options == null ? null : item.answered(), options == null ? null : item.unanswered()));
        }
        return new StatisticsView(examId,
                new StatisticsView.Papers(result.papers(), excluded, excludedByStatus, result.withoutChoices()),
                new StatisticsView.Scores(figure(result.mean()), figure(result.standardDeviation()), figure(result.min()),
                        figure(result.max()), histogram),
                new StatisticsView.Reliability(figure(result.cronbachAlpha()), result.items().size(), result.reliabilityPapers()),
                questions);
    }

    /** {@code [{questionId, score}]} → questionId → score (null while unmarked), in the paper's order. */
    private Map<String, BigDecimal> marks(String json) {
        Map<String, BigDecimal> marks = new LinkedHashMap<>();
        if (json == null) {
            return marks;
        }
        for (JsonNode mark : read(json)) {
            JsonNode score = mark.path("score");
            marks.put(mark.path("questionId").asText(), score.isNumber() ? plain(score.decimalValue()) : null);
        }
        return marks;
    }

    private JsonNode read(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored result is not JSON", e);
        }
    }

    private static <T> Iterable<T> iterable(java.util.Iterator<T> iterator) {
        return () -> iterator;
    }

    private static Instant gradedAt(ResultEntity row) {
        return ResultStore.GRADED.equals(row.status) && row.updatedAt != null ? row.updatedAt.toInstant() : null;
    }

    /** 2.0000 → 2, 1.3333 stays: no exponent notation, no trailing zeros. */
    static BigDecimal plain(BigDecimal value) {
        if (value == null) {
            return null;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    /** A statistic to 4 decimals; NaN (undefined) is null. */
    static BigDecimal figure(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? null : plain(BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN));
    }

    private static BigDecimal percent(double value) {
        return plain(BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_EVEN));
    }
}
