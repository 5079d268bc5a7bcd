package org.examsuite.answer.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.inject.Inject;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The draft restore's query keeps using the history's index when its first executions ran while
 * the table was empty: with PostgreSQL's default plan cache the generic plan made then (a sequential
 * scan) is reused as the table grows, until the next ANALYZE — which never comes where autovacuum
 * is off. The service's connections plan each execution for its arguments instead.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class QueryPlanTest {
    @Inject
    Pool pool;

    @Test
    void theRestoreQueryUsesTheIndexAfterItsFirstRunsSawAnEmptyHistory() {
        String table = "plan_probe_" + Long.toHexString(System.nanoTime());
        String plan = pool.withConnection(conn -> conn.query("CREATE TEMP TABLE " + table
                + " (LIKE exam_answer.answer_history INCLUDING INDEXES INCLUDING DEFAULTS)").execute()
                .chain(() -> conn.query("ANALYZE " + table).execute())
                .chain(() -> conn.query("PREPARE " + table + "(text) AS " + DraftRepository.ANSWERS
                        .replace("exam_answer.answer_history", table)).execute())
                .chain(() -> runTimes(conn, table, 8))
                .chain(() -> conn.query("INSERT INTO " + table + " (session_id, question_id, epoch, version, value, generation)"
                        + " SELECT 's' || (g % 2000), 'q' || (g % 20), 1, g, repeat('x', 300), 1 FROM generate_series(1, 40000) g")
                        .execute())
                .chain(() -> conn.query("EXPLAIN EXECUTE " + table + "('s1')").execute())
                .map(rows -> StreamSupport.stream(rows.spliterator(), false).map(row -> row.getString(0)).collect(Collectors.joining("\n")))
                .call(() -> conn.query("DROP TABLE " + table).execute()))
                .await().indefinitely();
        assertTrue(plan.contains("Index"), "the restore reads the session's rows through the index:\n" + plan);
        assertFalse(plan.contains("Seq Scan"), plan);
    }

    private static Uni<Void> runTimes(SqlConnection conn, String name, int times) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (int i = 0; i < times; i++) {
            chain = chain.chain(() -> conn.query("EXECUTE " + name + "('nobody')").execute().replaceWithVoid());
        }
        return chain;
    }
}
