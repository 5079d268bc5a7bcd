package org.examsuite.session.access;

import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowIterator;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.auth.StaffScope;
import org.examsuite.common.auth.TenantRoles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Which exams and sessions the caller may act on (the rule is suite-common's {@code StaffScope}): session-service
 * knows each exam's organisation ({@code exam.organisation}, set at creation from the author's token) and each
 * session's exam. Out of scope answers as "not found". Both facts never change once written, so they are kept in
 * memory after the first read (bounded: emptied past {@value #MAX_ENTRIES} entries).
 */
@ApplicationScoped
public class ExamAccess {
    static final int MAX_ENTRIES = 50_000;

    /** The roles that reach an exam's organisation-wide operations (creating, authoring, enrolling). */
    public static final String[] AUTHORING = {Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR};
    /** The roles that run an exam's sessions (monitor, pause, extend, warn, force-submit, announce, watch). */
    public static final String[] PROCTORING = {Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR};
    /** The roles that may read an exam (a proctor without its keys: {@link #readsKeys}). */
    public static final String[] READING = {Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR, Roles.PROCTOR, Roles.GRADER};
    private static final String[] KEY_READERS = {Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR, Roles.GRADER};

    private final Pool pool;
    private final Caller caller;
    private final Map<String, String> organisations = new ConcurrentHashMap<>();
    private final Map<String, String> examOfSession = new ConcurrentHashMap<>();

    @Inject
    ExamAccess(Pool pool, Caller caller) {
        this.pool = pool;
        this.caller = caller;
    }

    /** Succeeds when the caller may act on EXAM_ID through one of ALLOWED; else 404 EXAM_NOT_FOUND. */
    public Uni<Void> exam(String examId, String... allowed) {
        return callerReaches(examId, allowed).map(reaches -> {
            if (!reaches) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No such exam.");
            }
            return null;
        });
    }

    /** Whether the caller may read EXAM_ID's answer keys: an operator, or staff who may author or mark it (not a proctor). */
    public Uni<Boolean> readsKeys(String examId) {
        return callerReaches(examId, KEY_READERS);
    }

    /** Succeeds when the caller may act on SESSION_ID's exam through one of ALLOWED; else 404 SESSION_NOT_FOUND. */
    public Uni<Void> session(String sessionId, String... allowed) {
        if (caller.isOperator() || caller.isCandidate()) { // a candidate's own session: Caller.requireSession decides
            return Uni.createFrom().voidItem();
        }
        return examOf(sessionId).chain(examId -> examId == null ? Uni.createFrom().item(false) : callerReaches(examId, allowed))
                .map(reaches -> {
                    if (!reaches) {
                        throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No such session.");
                    }
                    return null;
                });
    }

    /**
     * For a token verified outside a request (the exam's watch socket): may IDENTITY act on EXAM_ID through one of
     * ALLOWED? An exam that does not exist is false too.
     */
    public Uni<Boolean> reaches(SecurityIdentity identity, String examId, String... allowed) {
        Set<String> roles = TenantRoles.rolesOf(identity);
        if (roles.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        return organisationOf(examId).map(org -> org != null
                && StaffScope.allows(identity, roles, examId, org.isEmpty() ? null : org, Set.of(allowed)));
    }

    /** The request's caller: an operator reaches every exam, staff by StaffScope (an exam that does not exist: false). */
    private Uni<Boolean> callerReaches(String examId, String... allowed) {
        if (caller.isOperator()) {
            return Uni.createFrom().item(true);
        }
        return organisationOf(examId).map(org -> org != null && caller.reachesExam(examId, org.isEmpty() ? null : org, allowed));
    }

    /**
     * Whether the caller may act on an exam of ORGANISATION (null: none, an operator's) through one of ALLOWED:
     * for what session-service holds of an exam before it is one (a draft), whose organisation the caller already read.
     */
    public boolean reaches(String examId, String organisation, String... allowed) {
        return caller.isOperator() || caller.reachesExam(examId, organisation, allowed);
    }

    /** The organisation a new exam or draft belongs to: the creating staff member's (null for an operator's). */
    public String creatorOrganisation() {
        return caller.organisation();
    }

    /** Which exams a list may show this caller: all (an operator), or its organisation's and its assigned ones. */
    public ListScope listScope() {
        if (caller.isOperator()) {
            return new ListScope(true, null, new String[0]);
        }
        boolean organisationWide = caller.organisation() != null && caller.hasAnyRole(Roles.ADMIN, Roles.AUTHOR);
        return new ListScope(false, organisationWide ? caller.organisation() : null, caller.assignedExams().toArray(String[]::new));
    }

    /** ALL, or the exams of ORGANISATION (null: none) and the exams ASSIGNED. */
    public record ListScope(boolean all, String organisation, String[] assigned) {
    }

    /**
     * Records ORG (null: none) as the new exam's, in the creating transaction: the creating staff member's
     * ({@link #creatorOrganisation}), or the organisation a published draft was written in.
     */
    public Uni<Void> recordOwner(SqlClient tx, String examId, String org) {
        if (org == null) {
            return Uni.createFrom().voidItem();
        }
        return tx.preparedQuery("UPDATE exam SET organisation = $2 WHERE exam_id = $1 AND organisation IS NULL")
                .execute(Tuple.of(examId, org)).replaceWithVoid();
    }

    /** The exam's organisation: null when there is no such exam, "" when it has none (an operator's). */
    private Uni<String> organisationOf(String examId) {
        String known = organisations.get(examId);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return pool.preparedQuery("SELECT organisation FROM exam WHERE exam_id = $1").execute(Tuple.of(examId)).map(rows -> {
            RowIterator<Row> it = rows.iterator();
            if (!it.hasNext()) {
                return null; // no such exam (yet): not remembered
            }
            String org = it.next().getString("organisation");
            org = org == null ? "" : org;
            remember(organisations, examId, org);
            return org;
        });
    }

    private Uni<String> examOf(String sessionId) {
        String known = examOfSession.get(sessionId);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return pool.preparedQuery("SELECT exam_id FROM session WHERE session_id = $1").execute(Tuple.of(sessionId)).map(rows -> {
            RowIterator<Row> it = rows.iterator();
            if (!it.hasNext()) {
                return null;
            }
            String examId = it.next().getString("exam_id");
            remember(examOfSession, sessionId, examId);
            return examId;
        });
    }

    private static <V> void remember(Map<String, V> map, String key, V value) {
        if (map.size() >= MAX_ENTRIES) {
            map.clear();
        }
        map.put(key, value);
    }
}
