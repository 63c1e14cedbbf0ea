// A URL group (the API's "topic"): a name and the endpoints a publish to that name fans out
// to, one message per endpoint. Endpoint URLs are unique within a group.

export interface Endpoint {
  url: string;
  name?: string;
}

export interface UrlGroup {
  name: string;
  createdAt: number;
  updatedAt: number;
  endpoints: Endpoint[];
}
