import { z } from 'zod';

/**
 * Expense category (our design beyond the contract's integer `category_id`). Scoped by company;
 * names are unique within a company, compared without regard to case.
 */
export const zExpenseCategory = z.object({
  id: z.number().int().positive(),
  object: z.literal('expense_category'),
  name: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int().nullable(),
});
export type ExpenseCategory = z.infer<typeof zExpenseCategory>;

/** POST /expense-categories and PUT /expense-categories/{id} (the only member is required in both). */
export const zExpenseCategoryWrite = z.object({ name: z.string().trim().min(1).max(100) });
export type ExpenseCategoryWrite = z.input<typeof zExpenseCategoryWrite>;
