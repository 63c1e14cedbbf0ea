// A stream cluster's consumer groups, from /console/api/streams/<cluster>: each instance's
// assigned partitions with the group's committed offset, the instance's position (its next
// offset to deliver) and the lag behind the partition's latest offset.

import type { ConsoleGroup } from '../wire';

export function ConsumerGroups(props: { groups: readonly ConsoleGroup[] }) {
  if (props.groups.length === 0) return <p class="empty">No consumer groups.</p>;
  return (
    <table class="entries" aria-label="Consumer groups">
      <thead>
        <tr>
          <th>group</th>
          <th>instance</th>
          <th>last seen</th>
          <th>topic</th>
          <th>partition</th>
          <th>committed</th>
          <th>position</th>
          <th>latest</th>
          <th>lag</th>
        </tr>
      </thead>
      <tbody>
        {props.groups.flatMap((g) =>
          g.instances.flatMap((i) =>
            (i.partitions.length === 0 ? [null] : i.partitions).map((p) => (
              <tr key={`${g.group}/${i.instance}/${p?.topic}/${p?.partition}`}>
                <td>{g.group}</td>
                <td>{i.instance}</td>
                <td>{new Date(i.lastSeen).toISOString()}</td>
                <td>{p?.topic ?? 'no partitions assigned'}</td>
                <td>{p?.partition ?? ''}</td>
                <td>{p === null ? '' : (p.committed ?? 'none')}</td>
                <td>{p === null ? '' : (p.position ?? 'none')}</td>
                <td>{p?.latest ?? ''}</td>
                <td>{p?.lag ?? ''}</td>
              </tr>
            )),
          ),
        )}
      </tbody>
    </table>
  );
}
