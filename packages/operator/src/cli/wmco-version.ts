/** The operator version: the services ConfigMap name and the nodes' version annotation carry it. */
export const WMCO_VERSION = '0.1.0';
