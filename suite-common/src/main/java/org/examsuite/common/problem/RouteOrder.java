package org.examsuite.common.problem;

/**
 * The order of the suite's own Vert.x route handlers around Quarkus's security handlers (authentication at -200,
 * authorization at -100): a body is taken in only once its request is authenticated.
 */
public final class RouteOrder {
    /** Limits on the request line, headers and declared body size; malformed URIs and bearers (ProblemRoutes). */
    public static final int FIRST = Integer.MIN_VALUE;
    /** The request's deadline is set (RequestDeadline): before any handler that may wait on a store. */
    public static final int DEADLINE = -1000;
    /** A request with a body is authenticated (auth.EarlyAuthentication), after Quarkus set up its identity. */
    public static final int AUTHENTICATE_BODIES = -150;
    /** The replica's body budget (BodyBudget). */
    public static final int BODY_BUDGET = -140;
    /** A service's own handlers that take bodies in: its front door, an early body read. */
    public static final int BODY_ROUTES = -130;

    private RouteOrder() {
    }
}
