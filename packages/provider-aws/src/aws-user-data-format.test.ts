import test from 'ava';
import { EC2LAUNCH_MIN_VERSION } from './aws-ec2launch-steps.js';
import { awsHostnameOverride } from './aws-hostname-override.js';
import { awsUserDataFormat } from './aws-user-data-format.js';

test('wraps in <powershell> and <persist> tags exactly as upstream (processTags vector)', (t) => {
  t.is(
    awsUserDataFormat.wrap('default-user-data'),
    '<powershell>default-user-data</powershell>\n<persist>true</persist>\n',
  );
});

test('the EC2Launch v2 install or upgrade comes first, then the persistent routes', (t) => {
  const [install, routes, ...rest] = awsUserDataFormat.extraSteps;
  t.deepEqual(rest, []);
  t.true(
    install?.includes(
      'https://s3.amazonaws.com/amazon-ec2launch-v2/windows/amd64/latest/AmazonEC2Launch.msi',
    ),
  );
  t.is(routes, '& "$env:ProgramFiles\\Amazon\\EC2Launch\\EC2Launch.exe" run-task add-routes --persistent\n');
});

test('compares the EC2Launch version numerically, not as a string', (t) => {
  const [install] = awsUserDataFormat.extraSteps;
  t.is(EC2LAUNCH_MIN_VERSION, '2.0.2107');
  t.true(install?.includes(`-lt [version]'2.0.2107'`));
  t.true(install?.includes('$ec2LaunchInstalled = [version]$Matches[0]'));
  // The bug a string comparison has: '2.0.999' sorts after '2.0.2107'.
  t.true('2.0.999' > '2.0.2107');
});

test('the hostname override is the IMDS local-hostname command upstream uses', (t) => {
  t.is(
    awsHostnameOverride.command,
    'Invoke-RestMethod -UseBasicParsing -Uri http://169.254.169.254/latest/meta-data/local-hostname',
  );
  t.deepEqual(awsHostnameOverride.files, []);
});
