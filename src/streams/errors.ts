// Every failure the stream service reports: an HTTP status and a text. Engines and groups
// return these as values; rest/envelope.ts turns them into `{error, status}` bodies.

import { ServiceError as StreamError } from '../errors/service-error.js';

export { StreamError };
export { isServiceError as isError } from '../errors/service-error.js';

export const UNAUTHORIZED = new StreamError(401, 'Unauthorized: wrong or missing REST credentials');
export const BODY_TOO_LARGE = new StreamError(413, 'request body too large');
export const NOT_JSON = new StreamError(400, 'request body is not valid JSON');
export const NO_BODY = new StreamError(400, 'request body is missing');

export const notFound = (path: string) => new StreamError(404, `no endpoint at ${path}`);
export const methodNotAllowed = (method: string, endpoint: string) =>
  new StreamError(405, `method ${method} is not allowed on /${endpoint}`);
export const badRequest = (text: string) => new StreamError(400, text);
export const unknownTopic = (topic: string) => new StreamError(404, `topic '${topic}' does not exist`);
/** A produce to a missing topic says how to make one: Larder creates topics only when asked.
 *  `--topic` at start adds to the first cluster, `default` unless the config names others. */
export const topicToCreate = (topic: string, cluster: string) => {
  const create = `\`larder topic create ${topic} --partitions N${cluster === 'default' ? '' : ` --cluster ${cluster}`}\``;
  const atStart = cluster === 'default' ? `, start Larder with \`--topic ${topic}:N\`` : '';
  return new StreamError(404, `topic '${topic}' does not exist; create it with ${create}${atStart}, or set streams.clusters.${cluster}.autoCreateTopics: true`);
};
export const unknownPartition = (topic: string, partition: number) =>
  new StreamError(404, `partition ${partition} of topic '${topic}' does not exist`);
export const topicExists = (topic: string) => new StreamError(409, `topic '${topic}' already exists`);
export const offsetOutOfRange = (topic: string, partition: number, offset: number, start: number, end: number) =>
  new StreamError(416, `offset ${offset} is out of range for ${topic}-${partition} (available: ${start} to ${end})`);
export const messageTooLarge = (size: number, max: number) =>
  new StreamError(413, `message is ${size} bytes, larger than the limit of ${max}`);
export const unknownInstance = (group: string, instance: string) =>
  new StreamError(404, `consumer instance '${instance}' of group '${group}' does not exist`);
export const tooManyInstances = (group: string, partitions: number) =>
  new StreamError(409, `consumer group '${group}' already has one instance per partition (${partitions}): no partition is left for another instance`);
export const noOffset = (group: string, topic: string, partition: number) =>
  new StreamError(400, `no committed offset for group '${group}' on ${topic}-${partition} and Auto-Offset-Reset is none`);
export const notAssigned = (topic: string, partition: number) =>
  new StreamError(409, `${topic}-${partition} is not assigned to this consumer instance`);
