{{/*
The fixed facts of each service, from docs/api.md §2 and docs/ARCHITECTURE.md
("Configuration"). They are the contract, not tunables, so they live here and not in
values.yaml: ports, public route prefixes (never /internal, never /q), which keys a
service holds, and which services call its /internal API (NetworkPolicy).
*/}}
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

{{/* Every key the suite uses, in the order of docs/ARCHITECTURE.md. */}}
{{- define "exam-suite.allKeys" -}}
[EXAM_CANDIDATE_PUBLIC_KEY, EXAM_CANDIDATE_PRIVATE_KEY, EXAM_OPERATOR_PUBLIC_KEY, EXAM_SESSION_SERVICE_PUBLIC_KEY, EXAM_SESSION_SERVICE_PRIVATE_KEY, EXAM_ANSWER_SERVICE_PUBLIC_KEY, EXAM_ANSWER_SERVICE_PRIVATE_KEY, EXAM_SUBMISSION_SERVICE_PUBLIC_KEY, EXAM_SUBMISSION_SERVICE_PRIVATE_KEY, EXAM_GRADING_SAGA_PUBLIC_KEY, EXAM_GRADING_SAGA_PRIVATE_KEY, EXAM_PAPER_PRIVATE_KEY, EXAM_PAPER_PUBLIC_KEY, EXAM_ARCHIVE_PRIVATE_KEY, EXAM_ARCHIVE_PUBLIC_KEY]
{{- end -}}

{{- define "exam-suite.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Name of one service's objects: <fullname>-<service name>, e.g. exam-suite-session-service. */}}
{{- define "exam-suite.serviceName" -}}
{{- printf "%s-%s" (include "exam-suite.fullname" .root) .svc.name -}}
{{- end -}}

{{- define "exam-suite.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/part-of: exam-suite
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selector labels of one service (root + svc). */}}
{{- define "exam-suite.selectorLabels" -}}
app.kubernetes.io/name: {{ .svc.name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{- define "exam-suite.serviceLabels" -}}
{{ include "exam-suite.labels" .root }}
app.kubernetes.io/name: {{ .svc.name }}
app.kubernetes.io/component: {{ .svc.name }}
{{- end -}}

{{- /* registry/repository:tag, pinned with @digest when one is set (./exam images writes them);
flavor native: the tag "<tag>-native", pinned with nativeDigest. */ -}}
{{- define "exam-suite.image" -}}
{{- $registry := .image.registry | default .root.Values.image.registry -}}
{{- $tag := .image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- $digest := .image.digest -}}
{{- if eq (.flavor | default "jvm") "native" -}}
{{- $tag = printf "%s-native" $tag -}}
{{- $digest = .image.nativeDigest -}}
{{- end -}}
{{- $ref := printf "%s:%s" .image.repository $tag -}}
{{- if $registry -}}
{{- $ref = printf "%s/%s" $registry $ref -}}
{{- end -}}
{{- if $digest -}}
{{- $ref = printf "%s@%s" $ref $digest -}}
{{- end -}}
{{- $ref -}}
{{- end -}}

{{- define "exam-suite.keysSecret" -}}
{{- .Values.keys.existingSecret | default (printf "%s-keys" (include "exam-suite.fullname" .)) -}}
{{- end -}}

{{- define "exam-suite.credentialsSecret" -}}
{{- .Values.credentials.existingSecret | default (printf "%s-credentials" (include "exam-suite.fullname" .)) -}}
{{- end -}}

{{/* The requests-per-second query of one service, shared by KEDA and the docs. */}}
{{- define "exam-suite.rpsQuery" -}}
sum(rate(http_server_requests_seconds_count{namespace="{{ .root.Release.Namespace }}",service="{{ include "exam-suite.serviceName" . }}"}[{{ .root.Values.autoscaling.rateWindow }}]))
{{- end -}}

{{- define "exam-suite.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "exam-suite.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* A Gateway API filter that drops a caller's W3C trace context (otel.trustIncomingTraceContext=false). */}}
{{- define "exam-suite.dropTraceContext" -}}
- type: RequestHeaderModifier
  requestHeaderModifier:
    remove: [traceparent, tracestate, baggage]
{{- end -}}
