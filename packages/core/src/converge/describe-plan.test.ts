import test from 'ava';
import { describe, describeStep } from './describe-plan.js';

const FORMS = [
  'http://alice:hunter2@proxy:3128',
  'alice:hunter2@proxy:3128',
  'http://alice:hunter%402@proxy:3128',
  'alice:hunt@r2@proxy:3128',
  'http://alice:hunter2@[fd00::1]:3128',
];

test('a plan (wmco plan, drift events) never shows proxy credentials, whatever their form', (t) => {
  for (const value of FORMS) {
    const text = describe({
      steps: [
        { kind: 'setEnvVar', name: 'HTTPS_PROXY', value },
        {
          kind: 'setServiceEnvironment',
          name: 'kubelet',
          environment: [`HTTP_PROXY=${value}`, 'NO_PROXY=.svc'],
        },
      ],
    });
    t.false(/alice|hunter|hunt/.test(text), text);
    t.regex(text, /HTTPS_PROXY=(http:\/\/)?\*\*\*@/);
    t.regex(text, /NO_PROXY=\.svc/);
  }
});

test('other values keep what is not a URL userinfo', (t) => {
  t.is(
    describeStep({ kind: 'setEnvVar', name: 'NODE_NAME', value: 'win@x' }),
    'set environment variable NODE_NAME=win@x (reboot)',
  );
  t.is(
    describeStep({ kind: 'setEnvVar', name: 'REGISTRY', value: 'https://u:p@mirror/x' }),
    'set environment variable REGISTRY=https://***@mirror/x (reboot)',
  );
});
