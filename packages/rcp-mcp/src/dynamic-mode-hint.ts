/**
 * How the tool-count warning suggests dynamic mode (the command line names its flag instead:
 * `namingTheFlags`). Its own module, so the command-line vocabulary does not load the search.
 */
export const DYNAMIC_OPTION = 'the gateway\'s "dynamic" option: search_tools, describe_tool and call_tool instead of every tool';
