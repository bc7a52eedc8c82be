/**
 * The provider SDK's `start(assistant, assistantOverrides, squad, workflow, …)` arguments, read
 * into the body of `POST /call/web`: each target given as an id or as an inline object.
 */
import type { CreateWebCallBody, StartOptions } from './call-options';

export interface SdkStartArguments {
  assistant?: string | CreateWebCallBody['assistant'] | null;
  assistantOverrides?: CreateWebCallBody['assistantOverrides'] | null;
  squad?: string | CreateWebCallBody['squad'] | null;
  workflow?: string | CreateWebCallBody['workflow'] | null;
  workflowOverrides?: CreateWebCallBody['workflowOverrides'] | null;
  options?: StartOptions;
}

/** Whether the arguments name anything to call: an assistant, a squad or a workflow. */
export function hasCallTarget({ assistant, squad, workflow }: SdkStartArguments): boolean {
  return Boolean(assistant || squad || workflow);
}

export function webCallBodyFrom({
  assistant,
  assistantOverrides,
  squad,
  workflow,
  workflowOverrides,
  options = {},
}: SdkStartArguments): CreateWebCallBody {
  return {
    ...(typeof assistant === 'string' ? { assistantId: assistant } : {}),
    ...(assistant && typeof assistant === 'object' ? { assistant } : {}),
    ...(assistantOverrides ? { assistantOverrides } : {}),
    ...(typeof squad === 'string' ? { squadId: squad } : {}),
    ...(squad && typeof squad === 'object' ? { squad } : {}),
    ...(typeof workflow === 'string' ? { workflowId: workflow } : {}),
    ...(workflow && typeof workflow === 'object' ? { workflow } : {}),
    ...(workflowOverrides ? { workflowOverrides } : {}),
    ...(options.roomDeleteOnUserLeaveEnabled === undefined
      ? {}
      : { roomDeleteOnUserLeaveEnabled: options.roomDeleteOnUserLeaveEnabled }),
  };
}
