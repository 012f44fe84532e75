import test from 'ava';
import {
  collectNamedTemplates,
  renderTemplate,
  TemplateError,
  type NamedTemplates,
} from './chart-template.js';

const data = {
  Values: { name: 'x', list: ['a', 'b'], empty: [], map: { b: 2, a: 1 }, off: false, blank: '', n: 3 },
  Release: { Namespace: 'ns1' },
};
const render = (t: string): string => renderTemplate(t, data, 'test.yaml');

test('prints fields of .Values and .Release', (t) => {
  t.is(
    render('name: {{ .Values.name }} in {{ .Release.Namespace }}, n={{ .Values.n }}'),
    'name: x in ns1, n=3',
  );
});

test('trims whitespace on the side of a dash', (t) => {
  t.is(render('a\n  {{- .Values.name }}\nb'), 'ax\nb');
  t.is(render('a {{ .Values.name -}}\n\n  b'), 'a xb');
});

test('if / else / end follow Go template truth', (t) => {
  t.is(render('{{ if .Values.name }}yes{{ else }}no{{ end }}'), 'yes');
  for (const falsy of ['off', 'blank', 'empty']) {
    t.is(render(`{{ if .Values.${falsy} }}yes{{ else }}no{{ end }}`), 'no', falsy);
  }
  t.is(render('{{ if .Values.map }}{{ if .Values.off }}1{{ else }}2{{ end }}{{ end }}'), '2');
});

test('a whole-file condition with trimming leaves only the final newline when false', (t) => {
  t.is(render('{{- if .Values.off }}\nkind: X\n{{- end }}\n'), '\n');
});

test('toYaml sorts keys and nindent indents every line after a newline', (t) => {
  t.is(render('m: {{ toYaml .Values.map | nindent 2 }}'), 'm: \n  a: 1\n  b: 2');
  t.is(render('{{ toYaml .Values.list | indent 4 }}'), '    - a\n    - b');
});

test('quote and join', (t) => {
  t.is(render('{{ join "," .Values.list | quote }}'), '"a,b"');
  t.is(render('{{ .Values.blank | quote }}'), '""');
});

test('comments render nothing', (t) => {
  t.is(render('a{{/* a comment */}}b'), 'ab');
});

test('errors name the template and what is wrong', (t) => {
  const cases: [string, RegExp][] = [
    ['{{ .Values.nope }}', /test\.yaml: no value at "\.Values\.nope"/],
    ['{{ .Values.map.a.deeper }}', /missing "deeper"/],
    ['{{ tpl "x" . }}', /unsupported function "tpl"/],
    ['{{ if .Values.name }}x', /block without "\{\{ end \}\}"/],
    ['x{{ end }}', /"\{\{ end \}\}" without/],
    ['{{ if .Values.name }}{{ else }}{{ else }}{{ end }}', /two "\{\{ else \}\}"/],
    ['{{ .Values.map }}', /cannot print object; use toYaml/],
    ['{{ .Values.name', /unclosed action/],
    ['{{ toYaml .Values.map | nindent .Values.name }}', /non-negative integer/],
    ['{{ join "," .Values.name }}', /join needs a list/],
    ['{{ quote }}', /quote takes 1 argument/],
    ['{{ $x := 1 }}', /"\$x" is not a function/],
    ['{{ $x }}', /unsupported term "\$x"/],
  ];
  for (const [template, message] of cases) {
    const err = t.throws(() => render(template), { instanceOf: TemplateError }, template);
    t.regex(err.message, message, template);
  }
});

test('define and include: named templates take their own data, nest, and pipe into nindent', (t) => {
  const named: NamedTemplates = new Map();
  const helpers =
    '{{/* c */}}\n{{- define "x.ns" -}}\nns: {{ .Release.Namespace }}\n{{- end }}\n' +
    '{{- define "x.all" -}}\nname: {{ .Values.name }}\n{{ include "x.ns" . }}\n{{- end }}';
  collectNamedTemplates(helpers, '_h.tpl', named);
  t.is(
    renderTemplate('labels:\n  {{- include "x.all" . | nindent 2 }}\n', data, 't.yaml', named),
    'labels:\n  name: x\n  ns: ns1\n',
  );
  t.throws(() => renderTemplate('{{ include "nope" . }}', data, 't.yaml', named), {
    message: /no template named "nope"/,
  });
  const loop: NamedTemplates = new Map();
  collectNamedTemplates('{{ define "a" }}{{ include "a" . }}{{ end }}', 'l.tpl', loop);
  t.throws(() => renderTemplate('{{ include "a" . }}', data, 't.yaml', loop), { message: /includes itself/ });
  t.throws(
    () => collectNamedTemplates('{{ if .Values.n }}{{ define "b" }}{{ end }}{{ end }}', 'b.tpl', loop),
    {
      message: /inside a block/,
    },
  );
});

test('printf, replace, trunc and trimSuffix as sprig has them', (t) => {
  t.is(render('{{ printf "%s-%s" .Values.name .Values.n | replace "-" "+" }}'), 'x+3');
  t.is(render('{{ printf "%s-abcdef" .Values.name | trunc 4 | trimSuffix "-" }}'), 'x-ab');
  t.is(render('{{ printf "ab-" | trunc 3 | trimSuffix "-" }}'), 'ab');
  t.throws(() => render('{{ printf "%s %s" .Values.name }}'), { message: /too few arguments/ });
  t.throws(() => render('{{ trunc 2 }}'), { message: /trunc takes 2/ });
});
