import { HostnameOverride, UserDataFormat, registerProvider } from '@wmco/core/provider';
import { newRootContainer } from '@wmco/core';
import { type GateScript } from '@wmco/core/internal';
import { operatorScripts, type ProviderScripts } from '@wmco/core/testing';
import { loadBuiltinProviders } from '../providers/baked-providers.js';

/** What each built-in provider contributes to the scripts a host runs, read from its registrations. */
export async function builtinProviderScripts(): Promise<ProviderScripts[]> {
  const providers = await loadBuiltinProviders();
  return providers.map((p) => {
    const container = newRootContainer();
    registerProvider(container, p);
    const get = <T>(token: symbol | string | object): T | undefined =>
      container.isRegistered(token as never, true) ? container.resolve<T>(token as never) : undefined;
    return {
      id: p.id,
      userDataFormat: get<UserDataFormat>(UserDataFormat),
      hostnameOverride: get<HostnameOverride>(HostnameOverride),
    };
  });
}

/** Every script the operator sends, for every built-in provider, from the builders themselves. */
export async function allOperatorScripts(): Promise<GateScript[]> {
  return operatorScripts(await builtinProviderScripts());
}
