package org.examsuite.session.exam;

import java.util.List;

/**
 * The proctoring rules an exam gets when its creation names none: the service's configured
 * ones (proctoring/ implements this from its configuration, so exam/ does not import it).
 */
public interface DefaultRules {
    List<ProctoringRule> defaults();
}
