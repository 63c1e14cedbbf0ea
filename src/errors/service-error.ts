// A failure a service answers with: an HTTP status and a text. The stream, vector and queue
// services and their engines return these as values, never thrown; each service's rest/
// builds its own envelope from them ({error, status} for streams and vector, as their SDKs
// read it).

export class ServiceError {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}
}

export const isServiceError = (v: unknown): v is ServiceError => v instanceof ServiceError;
