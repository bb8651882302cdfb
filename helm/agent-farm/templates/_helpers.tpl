{{/* Release-scoped base name, as `helm create` makes it. */}}
{{- define "farm.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* name of one app's objects: (dict "root" $ "name" "orchestrator") */}}
{{- define "farm.appName" -}}
{{- printf "%s-%s" (include "farm.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "farm.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/part-of: agent-farm
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "farm.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{- define "farm.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{- define "farm.configMapName" -}}{{ include "farm.fullname" . }}-config{{- end -}}
{{- define "farm.agentServiceAccount" -}}{{ include "farm.fullname" . }}-agent{{- end -}}
{{- define "farm.orchestratorServiceAccount" -}}{{ include "farm.fullname" . }}-orchestrator{{- end -}}
{{- define "farm.builderServiceAccount" -}}{{ include "farm.fullname" . }}-builder{{- end -}}
{{- define "farm.appsServiceAccount" -}}{{ include "farm.fullname" . }}-apps{{- end -}}
{{- define "farm.postgresSecretName" -}}
{{- if .Values.postgres.url -}}{{ include "farm.fullname" . }}-postgres{{- else -}}{{ .Values.postgres.urlSecret.name }}{{- end -}}
{{- end -}}

{{- define "farm.databaseUrlEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "farm.postgresSecretName" . }}
      key: {{ if .Values.postgres.url }}DATABASE_URL{{ else }}{{ .Values.postgres.urlSecret.key }}{{ end }}
{{- end -}}

{{/*
One app: a Deployment running `node <entry>` (a built entry, dist/<name>.mjs) in the farm image, and its Service.
(dict "root" $ "name" "srm" "entry" "dist/srm.mjs" "values" .Values.srm "port" 9470
      "env" (list ...) "secretEnv" true "serviceAccount" "..." "workVolume" "4Gi" "strategy" "Recreate"
      "readyPath" "/readyz")
*/}}
{{- define "farm.app" -}}
{{- $root := .root -}}
{{- $v := .values -}}
{{- $port := .port | default $root.Values.metrics.port -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "farm.appName" . }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "farm.labels" $root | nindent 4 }}
    app.kubernetes.io/name: {{ .name }}
spec:
  {{- if not .autoscaled }}
  replicas: {{ .replicas | default 1 }}
  {{- end }}
  revisionHistoryLimit: 3
  {{- if .strategy }}
  strategy:
    type: {{ .strategy }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "farm.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "farm.labels" $root | nindent 8 }}
        app.kubernetes.io/name: {{ .name }}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ $port | quote }}
        prometheus.io/path: /metrics
        {{- with $root.Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ .serviceAccount | default (include "farm.appsServiceAccount" $root) }}
      automountServiceAccountToken: {{ .apiAccess | default false }}
      enableServiceLinks: false
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ .terminationGracePeriodSeconds | default 30 }}
      containers:
        - name: {{ .name }}
          image: {{ include "farm.image" $root }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          args: ["node", {{ .entry | quote }}]
          ports:
            - name: http
              containerPort: {{ $port }}
              protocol: TCP
          env:
            {{- if not .metricsOnApiPort }}
            - name: FARM_METRICS_PORT
              value: {{ $port | quote }}
            {{- end }}
            {{- include "farm.componentTokenEnv" $root | nindent 12 }}
            {{- with .env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ include "farm.configMapName" $root }}
            {{- if .secretEnv }}
            - secretRef:
                name: {{ $root.Values.secret.name }}
            {{- end }}
          # readyPath (the orchestrator's /readyz): /healthz, and what a restart cannot fix (the Jobs' egress policy).
          readinessProbe:
            httpGet: { path: {{ .readyPath | default "/healthz" }}, port: http }
            periodSeconds: 10
          livenessProbe:
            httpGet: { path: /healthz, port: http }
            initialDelaySeconds: 30
            periodSeconds: 20
            failureThreshold: 6
          resources:
            {{- toYaml $v.resources | nindent 12 }}
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          volumeMounts:
            - { name: tmp, mountPath: /tmp }
            {{- if .workVolume }}
            - { name: work, mountPath: /work }
            {{- end }}
      volumes:
        # The root filesystem is read-only; /tmp is the processes' scratch space.
        - name: tmp
          emptyDir: { sizeLimit: {{ .tmpSize | default "1Gi" }} }
        {{- if .workVolume }}
        - name: work
          emptyDir: { sizeLimit: {{ .workVolume }} }
        {{- end }}
      {{- with $root.Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $root.Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $root.Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ include "farm.appName" . }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "farm.labels" $root | nindent 4 }}
    app.kubernetes.io/name: {{ .name }}
spec:
  type: ClusterIP
  selector:
    {{- include "farm.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ $port }}
      targetPort: http
      protocol: TCP
{{- end -}}

{{/* One NetworkPolicyEgressRule to a destination of networkPolicy.codeEgress ({ipBlocks, peers, ports}); nothing without a peer (an empty `to` would mean anywhere). */}}
{{- define "farm.egressRule" -}}
{{- if or .ipBlocks .peers -}}
- to:
    {{- range .ipBlocks }}
    - ipBlock:
        {{- toYaml . | nindent 8 }}
    {{- end }}
    {{- with .peers }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  ports:
    {{- toYaml .ports | nindent 4 }}
{{- end }}
{{- end -}}

{{- define "farm.adminTokenSecretName" -}}
{{- if .Values.auth.adminToken.create -}}{{ include "farm.fullname" . }}-admin-token{{- else -}}{{ .Values.auth.adminToken.existingSecret }}{{- end -}}
{{- end -}}

{{/* The env entries that pass one token from its Secret: (dict "name" "FARM_ADMIN_TOKEN" "secret" "..." "key" "...") */}}
{{- define "farm.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
{{- end -}}

{{/* FARM_COMPONENT_TOKEN, for every farm Deployment (the srm and rag-service check it, the others present it). */}}
{{- define "farm.componentTokenEnv" -}}
{{- include "farm.secretEnv" (dict "name" "FARM_COMPONENT_TOKEN" "secret" (.Values.auth.componentToken.existingSecret | default .Values.secret.name) "key" .Values.auth.componentToken.key) }}
{{- end -}}

{{/*
How the agent and build Job pods run (FARM_JOB_POD, JSON read by the orchestrator and the builder): the chart's
own pod and container security, and the Jobs' node selection (the runtime class: sandbox.runtimeClassName).
*/}}
{{- define "farm.jobPod" -}}
{{- $j := .Values.jobs -}}
{{- $pod := dict "securityContext" .Values.podSecurityContext "containerSecurityContext" .Values.securityContext -}}
{{- with $j.nodeSelector }}{{ $_ := set $pod "nodeSelector" . }}{{ end -}}
{{- with $j.tolerations }}{{ $_ := set $pod "tolerations" . }}{{ end -}}
{{- with $j.affinity }}{{ $_ := set $pod "affinity" . }}{{ end -}}
{{- with $j.priorityClassName }}{{ $_ := set $pod "priorityClassName" . }}{{ end -}}
{{- toJson $pod -}}
{{- end -}}

{{/*
FARM_SANDBOX_*: the sandbox sidecar of the Job pods, for the orchestrator (agent Jobs) and the builder (build Jobs).
Takes (dict "root" . "resources" <the sidecar's resources>).
*/}}
{{- define "farm.sandboxEnv" -}}
{{- $s := .root.Values.sandbox -}}
- name: FARM_SANDBOX_SIDECAR
  value: {{ ternary "on" "off" $s.sidecar | quote }}
- name: FARM_SANDBOX_SECCOMP
  value: {{ $s.seccompProfile.type | quote }}
{{- with $s.seccompProfile.localhostProfile }}
- name: FARM_SANDBOX_SECCOMP_PROFILE
  value: {{ . | quote }}
{{- end }}
{{- with $s.runtimeClassName }}
- name: FARM_SANDBOX_RUNTIME_CLASS
  value: {{ . | quote }}
{{- end }}
{{- if not (eq $s.hostUsers nil) }}
- name: FARM_SANDBOX_HOST_USERS
  value: {{ toString $s.hostUsers | quote }}
{{- end }}
- name: FARM_SANDBOX_CPU_REQUEST
  value: {{ toString .resources.requests.cpu | quote }}
- name: FARM_SANDBOX_MEMORY_REQUEST
  value: {{ toString .resources.requests.memory | quote }}
- name: FARM_SANDBOX_CPU_LIMIT
  value: {{ toString .resources.limits.cpu | quote }}
- name: FARM_SANDBOX_MEMORY_LIMIT
  value: {{ toString .resources.limits.memory | quote }}
{{- end -}}
