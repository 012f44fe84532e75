import { describePlan, describeStep } from '@wmco/core';
import { renderTable } from '../table.js';
import type { MachinePlanReport } from './machine-planner.js';
import type { NodePlanReport } from './node-planner.js';

/** Everything one `wmco plan` found: BYOH nodes (planned over SSH) and Windows Machines (from the API). */
export interface PlanReports {
  readonly nodes: readonly NodePlanReport[];
  readonly machines: readonly MachinePlanReport[];
  /** Why Machines are not listed, when they cannot be. */
  readonly machineNote?: string;
}

function nodeAction(r: NodePlanReport): [string, string] {
  if (r.result === 'error') return ['error', r.error ?? ''];
  if (r.result === 'no-changes') return ['nothing', 'the host matches its spec'];
  const n = r.plan.steps.length;
  return ['change', `${n} step${n === 1 ? '' : 's'} (below)`];
}

/** One row per instance, BYOH and Machine together, with a SOURCE column (as `wmco status`). */
export function overview(p: PlanReports): string {
  const rows = [
    ...p.nodes.map((r) => ['BYOH', r.address || '-', r.node, ...nodeAction(r)]),
    ...p.machines.map((m) => ['Machine', m.machine, m.node ?? '-', m.action, m.reason]),
  ];
  return renderTable(['source', 'instance', 'node', 'action', 'detail'], rows);
}

function nodeBlock(r: NodePlanReport): string {
  const head = `${r.node}${r.address ? ` (${r.address})` : ''}`;
  const next = r.next ? [`  next: ${r.next.action} (${r.next.reason})`] : [];
  const notes = [...next, ...r.notes.map((n) => `  note: ${n}`)];
  if (r.result === 'error') return [`${head}: error: ${r.error ?? ''}`, ...notes].join('\n');
  const body = describePlan(r.plan)
    .split('\n')
    .map((l) => `  ${l}`);
  return [`${head}:`, ...body, ...notes].join('\n');
}

export function nodeJson(r: NodePlanReport): object {
  return {
    source: 'BYOH',
    node: r.node,
    address: r.address,
    result: r.result,
    steps: r.plan.steps.map((s) => ({ kind: s.kind, description: describeStep(s) })),
    ...(r.notes.length > 0 ? { notes: r.notes } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
    ...(r.next ? { next: r.next } : {}),
  };
}

export function machineJson(m: MachinePlanReport): object {
  return { source: 'Machine', ...m };
}

function machineSummary(machines: readonly MachinePlanReport[]): string {
  const count = (a: MachinePlanReport['action']): number => machines.filter((m) => m.action === a).length;
  const maintain = count('upgrade') + count('reboot') + count('resume');
  return (
    `Machines: ${count('join')} to join, ${maintain} to upgrade, reboot or resume, ` +
    `${count('replace')} to replace, ${count('check-drift') + count('nothing')} unchanged, ` +
    `${count('wait')} waiting, ${count('ignore')} ignored.`
  );
}

export function summary(p: PlanReports): string {
  const count = (x: NodePlanReport['result']): number => p.nodes.filter((r) => r.result === x).length;
  const steps = p.nodes.reduce((n, r) => n + r.plan.steps.length, 0);
  const nodes = (n: number): string => `${n} node${n === 1 ? '' : 's'}`;
  const byoh =
    `Plan: ${nodes(count('changes'))} to change (${steps} step${steps === 1 ? '' : 's'}), ` +
    `${count('no-changes')} unchanged, ${count('error')} not planned.`;
  const machines = p.machines.length > 0 ? ` ${machineSummary(p.machines)}` : '';
  return `${byoh}${machines} Nothing was applied.`;
}

/** The text report: the overview table, the BYOH nodes' steps, the Machine note, the summary. */
export function planText(p: PlanReports): string {
  const note = p.machineNote !== undefined ? [`Machines not listed: ${p.machineNote}`] : [];
  return [overview(p), '', ...p.nodes.map(nodeBlock), ...note, '', summary(p)].join('\n');
}
