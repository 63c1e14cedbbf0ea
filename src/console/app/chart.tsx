// A live line chart (uPlot): rebuilt when its series change, given new data otherwise.

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

export function Chart(props: { title: string; unit: string; series: readonly string[]; data: uPlot.AlignedData }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const names = props.series.join('\n');

  useEffect(() => {
    const el = box.current!;
    const chart = new uPlot(
      {
        title: props.title,
        width: Math.max(300, el.clientWidth),
        height: 220,
        series: [{}, ...props.series.map((label, i) => ({ label, stroke: COLORS[i % COLORS.length], width: 2, spanGaps: true }))],
        axes: [{}, { label: props.unit, size: 60 }],
        scales: { x: { time: true } },
      },
      props.data,
      el,
    );
    plot.current = chart;
    return () => {
      chart.destroy();
      plot.current = null;
    };
  }, [names]);

  useEffect(() => plot.current?.setData(props.data), [props.data]);

  return <div class="chart" ref={box} aria-label={props.title} />;
}
