{{- define "exam-suite.catalogue" -}}
session:
  name: session-service
  port: 8081
  routes: [/api/v1/exams, /api/v1/sessions, /api/v1/audit]
  keys: [EXAM_CANDIDATE_PUBLIC_KEY, EXAM_CANDIDATE_PRIVATE_KEY, EXAM_OPERATOR_PUBLIC_KEY, EXAM_ANSWER_SERVICE_PUBLIC_KEY, EXAM_SUBMISSION_SERVICE_PUBLIC_KEY, EXAM_GRADING_SAGA_PUBLIC_KEY]
  signingKey: EXAM_SESSION_SERVICE_PRIVATE_KEY
  internalCallers: [answer, submission, grading]
answer:
  name: answer-service
  port: 8082
  routes: [/api/v1/answers]
  keys: [EXAM_CANDIDATE_PUBLIC_KEY, EXAM_OPERATOR_PUBLIC_KEY, EXAM_SESSION_SERVICE_PUBLIC_KEY, EXAM_SUBMISSION_SERVICE_PUBLIC_KEY]
  signingKey: EXAM_ANSWER_SERVICE_PRIVATE_KEY
  internalCallers: [submission, session]
submission:
  name: submission-service
  port: 8083
  routes: [/api/v1/submissions]
  keys: [EXAM_CANDIDATE_PUBLIC_KEY, EXAM_OPERATOR_PUBLIC_KEY, EXAM_SESSION_SERVICE_PUBLIC_KEY, EXAM_GRADING_SAGA_PUBLIC_KEY, EXAM_PAPER_PRIVATE_KEY]
  signingKey: EXAM_SUBMISSION_SERVICE_PRIVATE_KEY
  internalCallers: [session, grading]
grading:
  name: grading-saga
  port: 8084
  routes: [/api/v1/results, /api/v1/sagas, /api/v1/archive]
  keys: [EXAM_CANDIDATE_PUBLIC_KEY, EXAM_OPERATOR_PUBLIC_KEY, EXAM_PAPER_PUBLIC_KEY, EXAM_ARCHIVE_PRIVATE_KEY, EXAM_ARCHIVE_PUBLIC_KEY]
  signingKey: EXAM_GRADING_SAGA_PRIVATE_KEY
  internalCallers: []
{{- end -}}
