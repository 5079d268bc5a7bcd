package org.examsuite.common.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class StaffScopeTest {
    private static final Set<String> PAUSE = Set.of(Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR);

    @Test
    void anOperatorReachesEveryExamWhereOperatorsMayAct() {
        assertTrue(StaffScope.allows(Set.of(Roles.OPERATOR), null, Set.of(), "e1", "org-a", PAUSE));
        assertFalse(StaffScope.allows(Set.of(Roles.OPERATOR), null, Set.of(), "e1", "org-a", Set.of(Roles.PROCTOR)));
    }

    @Test
    void adminsAndAuthorsReachTheirOrganisationsExamsOnly() {
        assertTrue(StaffScope.allows(Set.of(Roles.ADMIN), "org-a", Set.of(), "e1", "org-a", PAUSE));
        assertFalse(StaffScope.allows(Set.of(Roles.ADMIN), "org-b", Set.of(), "e1", "org-a", PAUSE));
        assertFalse(StaffScope.allows(Set.of(Roles.ADMIN), null, Set.of(), "e1", null, PAUSE), "no organisation known: no reach");
        assertFalse(StaffScope.allows(Set.of(Roles.AUTHOR), "org-a", Set.of(), "e1", "org-a", PAUSE), "authors do not pause");
    }

    @Test
    void proctorsAndGradersReachTheirAssignedExamsOnlyWhateverTheOrganisationSays() {
        assertTrue(StaffScope.allows(Set.of(Roles.PROCTOR), "org-a", Set.of("e1"), "e1", null, PAUSE));
        assertFalse(StaffScope.allows(Set.of(Roles.PROCTOR), "org-a", Set.of("e2"), "e1", "org-a", PAUSE), "same organisation, not assigned");
        assertFalse(StaffScope.allows(Set.of(Roles.GRADER), "org-a", Set.of("e1"), "e1", "org-a", PAUSE), "graders do not pause");
    }

    @Test
    void aRoleCountsOnlyForTheOperationsThatAllowIt() {
        // an author who also proctors exam e2 may pause e2, not every exam of the organisation
        Set<String> both = Set.of(Roles.AUTHOR, Roles.PROCTOR);
        assertTrue(StaffScope.allows(both, "org-a", Set.of("e2"), "e2", "org-a", PAUSE));
        assertFalse(StaffScope.allows(both, "org-a", Set.of("e2"), "e1", "org-a", PAUSE));
        assertFalse(StaffScope.allows(Set.of(Roles.SERVICE, Roles.CANDIDATE), "org-a", Set.of("e1"), "e1", "org-a",
                Set.of(Roles.SERVICE, Roles.CANDIDATE, Roles.PROCTOR)), "not staff roles");
    }
}
