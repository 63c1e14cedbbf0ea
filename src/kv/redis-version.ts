// The Redis version Larder answers as, the one whose commands and replies it follows: INFO's
// redis_version and a script's redis.REDIS_VERSION.

export const REDIS_VERSION = '7.2.0';
/** The version as scripts get it in redis.REDIS_VERSION_NUM: 0x00MMmmpp. */
export const REDIS_VERSION_NUM = 0x070200;
