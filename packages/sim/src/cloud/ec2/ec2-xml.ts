/** The XML namespace EC2 answers in (botocore's `xmlNamespace` for API version 2016-11-15). */
export const EC2_XMLNS = 'http://ec2.amazonaws.com/doc/2016-11-15/';

export type XmlNode = string | number | boolean | readonly XmlNode[] | { readonly [name: string]: XmlNode };

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Renders `{name: value}` objects as elements; arrays as EC2 `<item>` lists. */
export function renderXml(node: XmlNode): string {
  if (typeof node !== 'object') return escape(String(node));
  if (Array.isArray(node)) return node.map((n: XmlNode) => `<item>${renderXml(n)}</item>`).join('');
  return Object.entries(node as Record<string, XmlNode>)
    .map(([name, value]) => `<${name}>${renderXml(value)}</${name}>`)
    .join('');
}

/** A successful EC2 response document: `<XResponse xmlns=...><requestId/>...</XResponse>`. */
export function ec2Response(action: string, requestId: string, body: Record<string, XmlNode>): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${EC2_XMLNS}">` +
    `<requestId>${requestId}</requestId>${renderXml(body)}</${action}Response>`
  );
}

/** EC2's error document (`Response/Errors/Error` with `Code` and `Message`, then `RequestID`). */
export function ec2Error(code: string, message: string, requestId: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${escape(code)}</Code>` +
    `<Message>${escape(message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`
  );
}

/** An EC2 API error with its real code and HTTP status. */
export class Ec2Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
