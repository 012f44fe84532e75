import test from 'ava';
import { describeProviderContract } from '@wmco/core/testing';
import { azureProvider } from './azure-provider.js';

describeProviderContract(test, azureProvider);
