// The interface between the REST surface and what stores the messages. The embedded log
// engine (log/) implements it; a later Kafka backend can implement the same, so rest/ and
// groups/ never see files. Keys, values and header values are text (UTF-8 on disk).

import type { StreamTopicConfig } from '../config/schema.js';
import type { StreamError } from './errors.js';

export interface Header {
  key: string;
  value: string;
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface Position extends TopicPartition {
  offset: number;
}

/** A message to produce; the engine picks the partition and the timestamp when absent. */
export interface OutgoingMessage {
  topic: string;
  partition?: number;
  timestamp?: number;
  key: string | null;
  value: string;
  headers: Header[];
}

export interface Metadata extends Position {
  timestamp: number;
}

export interface Message extends Metadata {
  key: string;
  value: string;
  headers: Header[];
}

/** The offsets a partition holds: `start` is the first kept, `end` the next to be written. */
export interface OffsetRange {
  start: number;
  end: number;
}

export interface StreamBackend {
  /** Topic name to partition count. */
  topics(): ReadonlyMap<string, number>;
  createTopic(name: string, settings: StreamTopicConfig): StreamError | null;
  /** A topic's settings (partitions, retention, segment size); undefined for an unknown topic. */
  topicSettings(name: string): StreamTopicConfig | undefined;
  /** Resolves once every message is durable, with their metadata in request order. */
  produce(messages: readonly OutgoingMessage[]): Promise<Metadata[] | StreamError>;
  /**
   * Messages from each position on (at most `max` in all), in position order. When none is
   * there yet it waits up to `timeoutMs` for one.
   */
  read(positions: readonly Position[], max: number, timeoutMs: number): Promise<Message[] | StreamError>;
  range(tp: TopicPartition): OffsetRange | StreamError;
  /** The earliest offset whose timestamp is at least `timestamp`; the end offset when there is none. */
  offsetForTime(tp: TopicPartition, timestamp: number): number | StreamError;
  /** Stores a group's committed offsets; resolves once they are durable. */
  commit(group: string, positions: readonly Position[]): Promise<void>;
  /** A group's committed offset (the next offset to consume), if any. */
  committed(group: string, tp: TopicPartition): number | undefined;
  /** Retries writes a failing disk held back; why some log still cannot be written, or null. */
  writeFailure(): string | null;
  close(): Promise<void>;
}
