import { describe, expect, it } from 'vitest'
import { fieldErrors, resumeAt } from './OnboardingWizard'

const step = (isCompleted: boolean) => ({ stepDataObject: {}, isCompleted, isValid: isCompleted })

describe('the onboarding questionnaire', () => {
  it("reads the server's field errors, with or without the request prefix", () => {
    expect(fieldErrors('details.otherRole: This field is mandatory; details.companyName: at most 100 characters')).toEqual({
      otherRole: 'This field is mandatory',
      companyName: 'at most 100 characters',
    })
    expect(fieldErrors('features.desiredFeature.0: Invalid option')).toEqual({ desiredFeature: 'Invalid option' })
  })

  it('resumes on the first step not completed, or the last one', () => {
    const steps = { init: step(true), purpose: step(true), details: step(false), features: step(false) }
    expect(resumeAt({ steps, sentAt: null })).toBe(1)
    expect(resumeAt({ steps: { ...steps, details: step(true), features: step(true) }, sentAt: null })).toBe(2)
    expect(resumeAt({ steps: { ...steps, purpose: step(false) }, sentAt: null })).toBe(0)
    expect(resumeAt(undefined)).toBe(0)
  })
})
