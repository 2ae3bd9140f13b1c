import { parseTemplate, type ParsedTemplate } from '../parse-template';
import { RcpTemplateError } from '../template-error';

/** Parses a template and, on a syntax error, says where the template is (`url`, `header "X"`, ...). */
export function parseIn(text: string, where: string): ParsedTemplate {
  try {
    return parseTemplate(text);
  } catch (error) {
    if (error instanceof RcpTemplateError) throw rewhere(error, where);
    throw error;
  }
}

function rewhere(error: RcpTemplateError, where: string): RcpTemplateError {
  return new RcpTemplateError('RCP_TEMPLATE_SYNTAX', `${where}: ${error.message}`, {
    offset: error.offset,
    template: error.template,
    cause: error,
  });
}

/** A syntax error about compile-time structure (not token grammar). */
export function structureError(where: string, template: string, offset: number, reason: string): RcpTemplateError {
  return new RcpTemplateError('RCP_TEMPLATE_SYNTAX', `${where}: invalid at offset ${offset}: ${reason}`, {
    offset,
    template,
  });
}
