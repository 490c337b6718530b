import type { ButtonHTMLAttributes } from 'react'

export type ButtonVariant = 'default' | 'primary' | 'ghost' | 'danger'
export type ButtonSize = 'normal' | 'small'

// The button look stays global: banners, flags and the top bar place buttons by their shared class.
const VARIANT: Record<ButtonVariant, string> = {
  default: 'btn',
  primary: 'btn btn-primary',
  ghost: 'btn btn-ghost',
  danger: 'btn btn-danger',
}
const SIZE: Record<ButtonSize, string> = { normal: '', small: 'btn-small' }

/** The classes of a button look, for a link or a label that must look like a button. */
export function buttonClass(variant: ButtonVariant = 'default', size: ButtonSize = 'normal', extra?: string): string {
  return [VARIANT[variant], SIZE[size], extra].filter(Boolean).join(' ')
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize }

/** A button that does not submit unless asked to: most of the console's buttons live outside forms or beside them. */
export function Button({ variant = 'default', size = 'normal', className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...rest} />
}
