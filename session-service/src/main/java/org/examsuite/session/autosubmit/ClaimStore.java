package org.examsuite.session.autosubmit;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.session.session.SessionStore;

/**
 * Claims of sessions due for auto-submit, safe with any number of replicas: a claim takes
 * rows no other claimer holds (FOR UPDATE SKIP LOCKED) and gives them a lease; a replica
 * that dies leaves claims whose lease runs out, and another replica takes them again.
 * The first claim also closes the session to extensions.
 */
@ApplicationScoped
public class ClaimStore {

    public Uni<List<String>> claimDue(SqlClient client, Instant now, Instant leaseUntil, String claimer, int limit) {
        return client.preparedQuery("WITH due AS (SELECT session_id FROM session "
                + "WHERE status = 'IN_PROGRESS' AND submit_due_at <= $1 "
                + "AND (autosubmit_lease_until IS NULL OR autosubmit_lease_until <= $1) "
                + "ORDER BY submit_due_at LIMIT $4 FOR UPDATE SKIP LOCKED) "
                + "UPDATE session s SET autosubmit_claimed_at = COALESCE(s.autosubmit_claimed_at, $1), "
                + "autosubmit_claimed_by = $3, autosubmit_lease_until = $2, autosubmit_attempts = s.autosubmit_attempts + 1 "
                + "FROM due WHERE s.session_id = due.session_id RETURNING s.session_id")
                .execute(Tuple.of(SessionStore.at(now), SessionStore.at(leaseUntil), claimer, limit))
                .map(rows -> {
                    List<String> claimed = new ArrayList<>();
                    rows.forEach(row -> claimed.add(row.getString("session_id")));
                    return claimed;
                });
    }
}
