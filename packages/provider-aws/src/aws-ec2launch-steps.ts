/** The EC2Launch v2 agent, where the MSI installs it. */
const EC2LAUNCH_EXE = '$env:ProgramFiles\\Amazon\\EC2Launch\\EC2Launch.exe';
const EC2LAUNCH_MSI_URL =
  'https://s3.amazonaws.com/amazon-ec2launch-v2/windows/amd64/latest/AmazonEC2Launch.msi';

/**
 * The lowest EC2Launch v2 whose `add-routes --persistent` keeps the metadata routes across reboots
 * (OCPBUGS-35285).
 */
export const EC2LAUNCH_MIN_VERSION = '2.0.2107';

/**
 * Installs or upgrades EC2Launch v2 when it is missing or older than EC2LAUNCH_MIN_VERSION.
 *
 * Decision (differs from upstream on purpose): upstream compares the version *strings*, so `2.0.999`
 * sorts after `2.0.2107` and an old agent is never upgraded. Here the first `a.b.c` in the agent's
 * `version` output is cast to [version] and compared numerically; output without a version counts as
 * missing, so the agent is (re)installed.
 */
export const installEc2LaunchStep = `$ec2LaunchExe = "${EC2LAUNCH_EXE}"
$ec2LaunchInstalled = [version]'0.0.0'
if (Test-Path -Path $ec2LaunchExe) {
  $reported = (& $ec2LaunchExe version) | Out-String
  if ($reported -match '\\d+\\.\\d+\\.\\d+') {
    $ec2LaunchInstalled = [version]$Matches[0]
  }
}
if ($ec2LaunchInstalled -lt [version]'${EC2LAUNCH_MIN_VERSION}') {
  $ec2LaunchMsi = Join-Path -Path $env:TEMP -ChildPath 'AmazonEC2Launch.msi'
  Invoke-WebRequest -UseBasicParsing -Uri '${EC2LAUNCH_MSI_URL}' -OutFile $ec2LaunchMsi
  Start-Process -FilePath 'msiexec.exe' -ArgumentList @('/i', $ec2LaunchMsi, '/quiet', '/norestart') -Wait
  Remove-Item -Path $ec2LaunchMsi -Force
}
`;

/**
 * Makes the instance metadata routes (169.254.169.254 and friends) persistent, so they survive HNS
 * network creation and reboots (WINC-1149). Self-contained: it does not rely on the install step's
 * variables.
 */
export const persistMetadataRoutesStep = `& "${EC2LAUNCH_EXE}" run-task add-routes --persistent
`;
