/**
 * How the tool-count warning suggests dynamic mode (rcp-cli names its flag instead, by the phrase
 * `the gateway's "dynamic" option`).
 */
export const DYNAMIC_OPTION = 'the gateway\'s "dynamic" option: search_tools, describe_tool and call_tool instead of every tool';
