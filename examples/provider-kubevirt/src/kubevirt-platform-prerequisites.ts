import { WINDOWS_SERVER_2022, WINDOWS_SERVER_2025, type PlatformPrerequisites } from '@wmco/core/provider';

/** What a KubeVirt / OpenShift Virtualization Windows VM needs to become a node. */
export const kubevirtPlatformPrerequisites: PlatformPrerequisites = {
  supportedBuilds: [WINDOWS_SERVER_2022, WINDOWS_SERVER_2025],
  customVxlanPortRequired: false,
  notes: [
    'Install the virtio-win drivers (network, storage, balloon) in the image; without the virtio NIC driver the VM has no network.',
    'Bind the VM to a network the cluster nodes can reach (bridge or a secondary network); the default pod-network masquerade binding hides the VM behind its pod IP.',
    'Install cloudbase-init in the image so that the user data (#ps1_sysnative) runs at first boot.',
  ],
};
