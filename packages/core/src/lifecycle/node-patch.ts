import { type CoreV1Api, type V1Node } from '@kubernetes/client-node';
import type { ObjectRef } from '../kube/event-recorder.js';
import {
  LIFECYCLE_BOOT_ANNOTATION,
  LIFECYCLE_PHASE_ANNOTATION,
  type LifecyclePhase,
} from './lifecycle-annotations.js';
import { mergePatchNode } from '../kube/client/node-merge-patch.js';

/**
 * Takes a node out of service for a lifecycle step, or moves it to the next step: the phase annotation and
 * the cordon in one merge patch, so no reader ever sees a cordon the operator cannot account for.
 */
export async function enterLifecyclePhase(
  api: CoreV1Api,
  name: string,
  phase: LifecyclePhase,
): Promise<void> {
  await mergePatchNode(api, name, {
    spec: { unschedulable: true },
    metadata: { annotations: { [LIFECYCLE_PHASE_ANNOTATION]: phase } },
  });
}

/**
 * Puts a node back in service: uncordoned, the phase and boot-time annotations gone, with `annotations`
 * set, at once.
 */
export async function leaveLifecycle(
  api: CoreV1Api,
  name: string,
  annotations: Readonly<Record<string, string | null>> = {},
): Promise<void> {
  await mergePatchNode(api, name, {
    spec: { unschedulable: null },
    metadata: {
      annotations: {
        ...annotations,
        [LIFECYCLE_PHASE_ANNOTATION]: null,
        [LIFECYCLE_BOOT_ANNOTATION]: null,
      },
    },
  });
}

/** The Node as the subject of an event (`kubectl get events --field-selector involvedObject.kind=Node`). */
export function nodeRef(node: V1Node): ObjectRef {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    name: node.metadata?.name ?? '',
    ...(node.metadata?.uid ? { uid: node.metadata.uid } : {}),
  };
}
