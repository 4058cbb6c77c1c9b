/** navi's version, shown by `navi --version` and given to plugins. */
export const VERSION = "0.1.0";
