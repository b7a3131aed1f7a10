/** A firm's own document template (issue 18: Contazen's `Documents` templates); see template-engine.ts. */
export interface DocumentTemplatesTable {
  id: string;
  company_id: string;
  name: string;
  /** invoice or proforma. */
  type: string;
  /** HTML with placeholders, checked when saved. */
  content: string;
  /** 1: the template `POST /documents/preview` uses for its type when none is named; at most one per type. */
  is_default: number;
  created_at: number;
  updated_at: number;
}

export interface DocumentTemplatesTables {
  document_templates: DocumentTemplatesTable;
}
