import test from 'ava';
import { describeProviderContract } from '@wmco/core/testing';
import { gcpProvider } from './gcp-provider.js';

describeProviderContract(test, gcpProvider);
