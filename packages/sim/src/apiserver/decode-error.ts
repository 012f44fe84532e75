/** A body that kube-apiserver's decoder would refuse; the message is the decoder's own text. */
export class DecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeError';
  }
}
