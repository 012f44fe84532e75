{{/*
Named templates of the wmco chart. The objects keep the fixed names deploy/ uses (the operator finds its
ServiceAccount, Services, Secrets and Lease by those names), so there is no nameOverride/fullname: one
release per namespace, told apart by app.kubernetes.io/instance.
*/}}

{{/* The application's name: the value of app.kubernetes.io/name. */}}
{{- define "wmco.name" -}}
windows-machine-config-operator
{{- end }}

{{/* Chart name and version, as helm.sh/chart expects them ("+" is not allowed in a label value). */}}
{{- define "wmco.chart" -}}
{{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select the operator's pods. Only name and instance: they must never change across upgrades. */}}
{{- define "wmco.selectorLabels" -}}
app.kubernetes.io/name: {{ include "wmco.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The Kubernetes recommended labels, on every object the chart renders. */}}
{{- define "wmco.labels" -}}
helm.sh/chart: {{ include "wmco.chart" . }}
{{ include "wmco.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: operator
app.kubernetes.io/part-of: {{ .Chart.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}
