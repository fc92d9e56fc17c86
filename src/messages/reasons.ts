// The machine-readable `reason` of an error body (CONTRACT 26): a stable code per business rule,
// so an app tells "the trip is full" from "this item is forbidden" without reading the text.
// `errorCode` keeps the specification's values; `reason` refines it. Each rule's message key
// names its reason here, the one place: AppError takes it from the key it is raised with
// (errors.ts), and the document lists REASONS as the enum of ErrorResponse.reason.
// test/error-reasons.test.ts fails on a 409/422/429 raise whose key has no reason.
import type { MessageKey } from './index';

export const REASON_OF_KEY = {
  // Booking a trip
  'booking.notEnoughRemainingCapacity': 'CAPACITY_EXCEEDED',
  'booking.announcementTakesNoMore': 'TRIP_CLOSED',
  'booking.announcementAlreadyDeparted': 'TRIP_DEPARTED',
  'booking.tripNoLongerTakes': 'TRIP_UNAVAILABLE',
  'booking.cannotBookOwnAnnouncement': 'OWN_TRIP',
  'booking.cannotBookOwnAgency': 'OWN_AGENCY_TRIP',
  'booking.itemProhibited': 'ITEM_PROHIBITED',
  'booking.categoryProhibited': 'ITEM_PROHIBITED',
  'booking.restrictionsToConfirm': 'RESTRICTION_NOT_ACKNOWLEDGED',
  'booking.tripNotAccept': 'CATEGORY_NOT_ACCEPTED',
  'booking.notCancellable': 'RESERVATION_NOT_CANCELLABLE',
  'booking.priceAnnouncementChangedWhile': 'CONCURRENT_CHANGE',
  'reservation.actionNotAllowed': 'RESERVATION_STATUS',
  'reservation.reservationChangedMeanwhileReload': 'CONCURRENT_CHANGE',
  // Trips
  'announcement.totalWeightCannotLowerWeight': 'WEIGHT_BELOW_BOOKED',
  'announcement.announcementChangedMeanwhileReload': 'CONCURRENT_CHANGE',
  'announcement.currencyFixedOnceBooked': 'TRIP_CURRENCY_FIXED',
  'announcement.noLongerDeletable': 'TRIP_NOT_DELETABLE',
  'announcement.notDeletable': 'TRIP_NOT_DELETABLE',
  'announcement.notChangeable': 'TRIP_NOT_CHANGEABLE',
  'announcement.paidReservationsInProgress': 'TRIP_HAS_PAID_RESERVATIONS',
  'announcement.routePriceTripPaid': 'TRIP_HAS_PAID_RESERVATIONS',
  'travel.alreadyVerified': 'TRAVEL_ALREADY_VERIFIED',
  'travel.notPending': 'TRAVEL_PROOF_NOT_PENDING',
  'travel.tripNotOpen': 'TRIP_CLOSED',
  // Offers
  'offer.alreadyOpen': 'OFFER_ALREADY_OPEN',
  'offer.counterOnlyPending': 'OFFER_NOT_OPEN',
  'offer.expired': 'OFFER_EXPIRED',
  'offer.notOpen': 'OFFER_NOT_OPEN',
  // Money
  'money.walletBalanceNotCover': 'BALANCE_TOO_LOW',
  'money.noConnectedPayoutAccount': 'NO_PAYOUT_ACCOUNT',
  'payout.noMobileWallet': 'NO_PAYOUT_ACCOUNT',
  'payout.alreadyRegistered': 'PAYOUT_ACCOUNT_EXISTS',
  'money.idempotencyKeyAlreadyUsed': 'IDEMPOTENCY_KEY_REUSED',
  'money.paymentWindowReservationClosed': 'PAYMENT_WINDOW_CLOSED',
  'money.reservationOnlyPendingPayment': 'RESERVATION_NOT_PAYABLE',
  'money.bookingTotalBelowPayment': 'AMOUNT_BELOW_MINIMUM',
  'payment.methodNotOffered': 'PAYMENT_METHOD_NOT_OFFERED',
  'request.alreadyUsedAnotherRequest': 'IDEMPOTENCY_KEY_REUSED',
  // Disputes, protection, reviews, reports
  'dispute.alreadyDisputed': 'DISPUTE_ALREADY_OPEN',
  'dispute.alreadyDisputedWithId': 'DISPUTE_ALREADY_OPEN',
  'dispute.cannotOpenDisputeReservation': 'DISPUTE_NOT_ALLOWED',
  'dispute.deliveredReservationDisputedOnly': 'DISPUTE_NOT_ALLOWED',
  'dispute.disputeAlreadyResolved': 'DISPUTE_RESOLVED',
  'dispute.disputeResolved': 'DISPUTE_RESOLVED',
  'dispute.reservationChangedWhileDispute': 'CONCURRENT_CHANGE',
  'dispute.reservationNotDisputed': 'DISPUTE_NOT_OPEN',
  'protection.notProtected': 'NOT_PROTECTED',
  'protection.reasonNotCovered': 'NOT_COVERED',
  'review.alreadyReviewedReservation': 'ALREADY_REVIEWED',
  'review.onlyDeliveredReservationReviewed': 'NOT_DELIVERED',
  'report.alreadyOpenReportTarget': 'REPORT_ALREADY_OPEN',
  'report.cannotReportYourself': 'OWN_ACCOUNT',
  'report.reportAlreadyClosed': 'REPORT_CLOSED',
  // Hand-over, tracking, conversations, customs
  'handover.qrCodeAlreadyUsed': 'CODE_ALREADY_USED',
  'handover.tooManyWrongCodes': 'TOO_MANY_ATTEMPTS',
  'tracking.positionsAcceptedOnlyWhile': 'RESERVATION_STATUS',
  'conversation.conversationReadOnlySince': 'CONVERSATION_READ_ONLY',
  'customs.notDeclarable': 'RESERVATION_STATUS',
  // Accounts, phone, KYC, privacy
  'auth.accountAlreadyExists': 'ACCOUNT_EXISTS',
  'auth.accountNoPasswordYet': 'NO_PASSWORD',
  'auth.emailAddressAlreadyVerified': 'EMAIL_ALREADY_VERIFIED',
  'auth.passwordChangedConcurrentlyRetry': 'CONCURRENT_CHANGE',
  'phone.noPendingCode': 'NO_PENDING_CODE',
  'phone.tooManyAttempts': 'TOO_MANY_ATTEMPTS',
  'phone.tooManyCodes': 'TOO_MANY_CODES',
  'kyc.identityAlreadyVerified': 'KYC_ALREADY_VERIFIED',
  'kyc.alreadyVerified': 'KYC_ALREADY_VERIFIED',
  'kyc.alreadyRejected': 'KYC_ALREADY_REJECTED',
  'kyc.verificationUnderReviewWait': 'KYC_UNDER_REVIEW',
  'privacy.exportInProgress': 'EXPORT_IN_PROGRESS',
  'privacy.exportsPerDay': 'TOO_MANY_EXPORTS',
  'user.alreadyErased': 'ACCOUNT_ERASED',
  'user.deletionOwnsAgency': 'ACCOUNT_OWNS_AGENCY',
  'user.deletionReservationInProgress': 'ACCOUNT_HAS_OPEN_RESERVATIONS',
  'user.deletionTripOpen': 'ACCOUNT_HAS_OPEN_TRIPS',
  'user.deletionWalletHoldsMoney': 'ACCOUNT_HOLDS_MONEY',
  'user.deletionWithdrawalPending': 'ACCOUNT_HAS_PENDING_WITHDRAWAL',
  // Agencies
  'agency.alreadyBelongsAgency': 'ALREADY_AGENCY_MEMBER',
  'agency.alreadySuspended': 'AGENCY_ALREADY_SUSPENDED',
  'agency.alreadyActive': 'AGENCY_ALREADY_ACTIVE',
  'agency.branchAlready': 'BRANCH_STATUS',
  'agency.branchDeactivated': 'BRANCH_DEACTIVATED',
  'agency.ownBranchDeactivated': 'BRANCH_DEACTIVATED',
  'agency.branchStillActiveAnnouncements': 'BRANCH_HAS_OPEN_TRIPS',
  'agency.branchStillEmployeesMove': 'BRANCH_HAS_EMPLOYEES',
  'agency.documentReviewedSameTime': 'CONCURRENT_CHANGE',
  'agency.invitationAlreadyAccepted': 'INVITATION_ANSWERED',
  'agency.invitationAlreadyAnswered': 'INVITATION_ANSWERED',
  'agency.invitationAlreadyDeclined': 'INVITATION_ANSWERED',
  'agency.invitationExpired': 'INVITATION_EXPIRED',
  'agency.publishOnlyOwnBranch': 'NOT_OWN_BRANCH',
  'agency.suspendedCannotPublish': 'AGENCY_SUSPENDED',
  // Back office and reference data
  'admin.accountDeleted': 'ACCOUNT_ERASED',
  'admin.accountNotSuspended': 'ACCOUNT_NOT_SUSPENDED',
  'admin.accountAlreadySuspended': 'ACCOUNT_ALREADY_SUSPENDED',
  'admin.cannotRemoveOwnSuper': 'OWN_ACCOUNT',
  'admin.cannotSuspendActivateOwn': 'OWN_ACCOUNT',
  'admin.rolesChangedConcurrentlyRetry': 'CONCURRENT_CHANGE',
  'category.codeExists': 'CODE_TAKEN',
  'category.inUse': 'CATEGORY_IN_USE',
  'reference.prohibitedItemCodeTaken': 'CODE_TAKEN',
  'delivery.deliveryChangedMeanwhileRetried': 'CONCURRENT_CHANGE',
  'delivery.deliveryOnlyFailedDead': 'DELIVERY_NOT_RETRYABLE',
  // Staff sign-in with two-factor: the app asks for the code (totpCode) or says it was refused
  'auth.totpRequired': 'TOTP_REQUIRED',
  'auth.totpInvalid': 'TOTP_INVALID',
} as const satisfies Partial<Record<MessageKey, string>>;

/** The rate limits (429), whatever their message. */
const OTHER_REASONS = ['RATE_LIMITED'] as const;

export type Reason = (typeof REASON_OF_KEY)[keyof typeof REASON_OF_KEY] | (typeof OTHER_REASONS)[number];

/** Every reason, sorted: the enum of ErrorResponse.reason in the document. */
export const REASONS = [...new Set<Reason>([...Object.values(REASON_OF_KEY), ...OTHER_REASONS])].sort() as [Reason, ...Reason[]];

/** The reason of a message key, if it names a business rule. */
export const reasonOfKey = (key: string): Reason | undefined => (REASON_OF_KEY as Record<string, Reason>)[key];
