// Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2, seed 0x9747b28c), so a keyed
// message lands on the partition a Kafka producer's default partitioner would choose:
// toPositive(murmur2(keyBytes)) % partitions.

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2] << 16;
  if (rest >= 2) h ^= data[whole + 1] << 8;
  if (rest >= 1) h = Math.imul(h ^ data[whole], M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export function keyPartition(key: string, partitions: number): number {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
}
