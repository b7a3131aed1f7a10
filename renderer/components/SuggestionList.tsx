import type { CSSProperties, ReactNode } from 'react';

/**
 * The drop-down of matches under a search box. The box keeps the keyboard (arrows, Enter) and says
 * which row is `active`; a click picks on mouse-down, before the box's blur closes the list.
 */
export function SuggestionList<T extends { id: string }>(props: {
  items: readonly T[];
  active: number;
  onPick(item: T): void;
  children(item: T): ReactNode;
  testId?: string;
  style?: CSSProperties;
}) {
  return (
    <div className="suggest" role="listbox" data-testid={props.testId} style={props.style}>
      {props.items.map((item, i) => (
        <div
          key={item.id}
          role="option"
          aria-selected={i === props.active}
          className={`opt${i === props.active ? ' active' : ''}`}
          onMouseDown={(e) => {
            e.preventDefault();
            props.onPick(item);
          }}
        >
          {props.children(item)}
        </div>
      ))}
    </div>
  );
}
