import { httpStatus, type KubeList, type KubeObject, type ListPort } from './watch-port.js';

/** The selectors of a list, without paging. */
export interface ListSelectors {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/**
 * A whole list read in pages of `pageSize` (`limit`, then `continue` until the API server sends none), as
 * client-go's pager does for a reflector's list: the API server reads each page at the first page's
 * resourceVersion, so the pages make one consistent list, reported at that resourceVersion. A continue
 * token that expired meanwhile (410) is answered by one unpaged list, as the pager's FullListIfExpired.
 */
export async function listInPages<T extends KubeObject>(
  list: ListPort<T>,
  selectors: ListSelectors,
  pageSize: number,
): Promise<KubeList<T>> {
  const items: T[] = [];
  let token: string | undefined;
  let resourceVersion: string | undefined;
  do {
    let page: KubeList<T>;
    try {
      page = await list({
        ...selectors,
        limit: pageSize,
        ...(token === undefined ? {} : { continue: token }),
      });
    } catch (err) {
      if (token !== undefined && httpStatus(err) === 410) return list({ ...selectors });
      throw err;
    }
    items.push(...page.items);
    resourceVersion = page.metadata?.resourceVersion;
    token = page.metadata?._continue || undefined;
  } while (token !== undefined);
  return { items, metadata: resourceVersion === undefined ? {} : { resourceVersion } };
}
