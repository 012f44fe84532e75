import { readFile } from 'node:fs/promises';
import {
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  loadYaml,
  type KubernetesObject,
} from '@kubernetes/client-node';
import {
  WINDOWS_HOST_API,
  WINDOWS_HOST_CRD_FILE,
  type WindowsHost,
  type WindowsHostStatus,
} from '@wmco/embedded-controller-example';
import type { SimWorld } from './sim-world.js';

function admin(world: SimWorld): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return kc;
}

/** Applies the example's WindowsHost CRD as an admin would (`kubectl apply -f deploy/windowshost-crd.yaml`). */
export async function applyWindowsHostCrd(world: SimWorld): Promise<void> {
  const crd = loadYaml<KubernetesObject>(await readFile(WINDOWS_HOST_CRD_FILE, 'utf8'));
  await KubernetesObjectApi.makeApiClient(admin(world)).create(crd);
}

/** The admin's WindowsHosts of one namespace. */
export class WorldWindowsHosts {
  private readonly custom: CustomObjectsApi;

  constructor(
    world: SimWorld,
    private readonly namespace: string,
  ) {
    this.custom = admin(world).makeApiClient(CustomObjectsApi);
  }

  private get api(): { group: string; version: string; plural: string; namespace: string } {
    const { group, version, plural } = WINDOWS_HOST_API;
    return { group, version, plural, namespace: this.namespace };
  }

  async create(name: string, address: string, user = 'Administrator'): Promise<void> {
    const { group, version, kind } = WINDOWS_HOST_API;
    const body = {
      apiVersion: `${group}/${version}`,
      kind,
      metadata: { name, namespace: this.namespace },
      spec: { address, user },
    };
    await this.custom.createNamespacedCustomObject({ ...this.api, body });
  }

  async delete(name: string): Promise<void> {
    await this.custom.deleteNamespacedCustomObject({ ...this.api, name });
  }

  async get(name: string): Promise<WindowsHost | undefined> {
    return (await this.custom.getNamespacedCustomObject({ ...this.api, name }).catch(() => undefined)) as
      WindowsHost | undefined;
  }

  /** A probe for `until`: the WindowsHost's status once its phase is `phase` (throws on Failed). */
  phaseIs(name: string, phase: string): () => Promise<WindowsHostStatus | undefined> {
    return async () => {
      const s = (await this.get(name))?.status;
      if (s?.phase === 'Failed' && phase !== 'Failed')
        throw new Error(`WindowsHost ${name} failed: ${s.lastError ?? ''}`);
      return s?.phase === phase ? s : undefined;
    };
  }
}
