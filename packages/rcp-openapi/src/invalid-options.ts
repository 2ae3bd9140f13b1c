import { RcpError } from 'rcp-manifest';

/** The one error every bad input or option is: `RcpError` RCP_INVALID_OPTIONS, its cause chained. */
export function invalidOptions(message: string, cause?: unknown): RcpError<'RCP_INVALID_OPTIONS'> {
  return new RcpError('RCP_INVALID_OPTIONS', message, cause === undefined ? {} : { cause });
}
